package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// Documents date their own tool's releases with "Since", "Starting in",
// "added in" as often as with "version" (libcurl's HTTP2.md: "Starting in
// 7.43.0, libcurl fully supports HTTP/2 multiplexing", "Since 7.47.0, the
// curl tool enables HTTP/2 by default"): those releases are written. A
// manual's numbered section ("4.2 Link mode") is no release of its tool.
func TestBareReleaseDatedBySinceAndStartingIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt, s := corpusTenant(t, "relsince", "english", map[string]string{
		"HTTP2.md": "# HTTP/2 with curl\n\n## Multiplexing\n\nStarting in 7.43.0, libcurl fully supports HTTP/2 multiplexing, " +
			"which is the term for doing multiple independent transfers over the same physical TCP connection.\n\n" +
			"## curl tool\n\nSince 7.47.0, the curl tool enables HTTP/2 by default for HTTPS connections. " +
			"The curl 7.33.0 release was the first with HTTP/2 support in the tool.\n",
		"linking.md": "# Linking\n\n4.2 Link mode\n\nLink mode links together object files, including libtool objects, to form another library " +
			"or an executable program. The libtool 2.4.7 release documents this mode.\n",
	})
	for _, q := range []string{"does curl 7.47.0 enable HTTP/2 by default for HTTPS?", "What changed in libcurl 7.43.0 for HTTP/2 multiplexing?"} {
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.MissingTerms) > 0 {
			t.Errorf("%q: missing %q, confidence %.3f; the documents date the release", q, resp.MissingTerms, resp.Confidence)
		}
	}
	resp, err := s.Search(ctx, tt, search.Request{Query: "what changed in libtool 4.2 for link mode?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "libtool 4.2") {
		t.Errorf("libtool 4.2: missing %q, confidence %.3f; only a section is numbered 4.2", resp.MissingTerms, resp.Confidence)
	}
}
