package job_test

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/job"
)

// TestHR30OversizedBuildFileIsSkippedNotRefused: Archive refuses an entry
// over MaxFileBytes before skipBuildFiles runs, and skipBuildFiles passes
// refused entries over, so a Sphinx build's large asset (a video or a
// dataset under _static/, a big searchindex.js, any large file of a type
// ragd does not read) becomes a refused document ("document too large")
// with a row of its own, where a `ragd ingest` walk of the same directory
// leaves it out silently and the archive skips the same file when small.
// Correct: what is no document is skipped whatever its size.
func TestHR30OversizedBuildFileIsSkippedNotRefused(t *testing.T) {
	t.Parallel()
	page := "<html><body><h1>Guide</h1><p>How to validate a schema.</p></body></html>"
	big := strings.Repeat("x", 4096)
	entries := []entry{
		{name: "index.html", body: page},
		{name: "searchindex.js", body: "Search.setIndex({" + big + "})"},
		{name: "_static/demo.mp4", body: big},
		{name: "_static/sample.html", body: "<html><body><p>" + big + "</p></body></html>"},
		{name: "_downloads/dataset.zip", body: big},
	}
	in := job.Input{BaseURI: "https://docs.test/", Limits: job.Limits{MaxFileBytes: 1024}}
	for _, tc := range []struct {
		name string
		data []byte
	}{{"tar.gz", tarball(t, true, entries...)}, {"zip", zipfile(t, entries...)}} {
		files, err := readArchive(in, tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, f := range files {
			rel := strings.TrimPrefix(f.SourceURI, "https://docs.test/")
			if rel == "index.html" {
				continue
			}
			if f.Skip == "" || f.Refuse != "" {
				t.Errorf("%s: %s: skip %q, refuse %q; want skipped (no document), not refused as too large", tc.name, rel, f.Skip, f.Refuse)
			}
		}
	}
}
