package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestDifferenceAndCallingAreWording: "the difference between A and B" and
// "after calling f()" frame a question; the documents state each thing and
// need not write those words. Over parfive's 11 chunks, "What is the
// difference between download() and run_download()?" and "After calling
// download(), how can I find out which files failed?" were refused for
// them (a held-out trial).
func TestDifferenceAndCallingAreWording(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"downloader.md": "# Downloader\n\nThe downloader fetches files in parallel.\n\n## download\n\n" +
			"download() runs the queued downloads and returns the results. It is a synchronous version of run_download().\n\n" +
			"## run_download\n\nrun_download() is the coroutine that downloads every queued file.",
		"results.md": "# Results\n\nThe results list holds the paths of the files downloaded. Its errors attribute lists the files that failed, each with its url and exception.",
	}
	tt, s := corpusTenant(t, "wording56", "english", docs)
	for _, q := range []string{"What is the difference between download() and run_download()?", "After calling download(), which files failed?"} {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence < tenant.DefaultRefuseBelow || strings.Contains(resp.ConfidenceReason, "difference") || strings.Contains(resp.ConfidenceReason, "calling") {
			t.Errorf("%q: confidence %.3f (reason %q), want at least %.2f", q, resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
		}
	}
}
