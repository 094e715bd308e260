package job_test

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/job"
)

// A Sphinx build shipped without searchindex.js (Debian's bind9-doc) is
// now told by its pages' heads, in the walk and in an archive alike; and
// a file that is no document is skipped whatever its size
// (TestHR30OversizedBuildFileIsSkippedNotRefused). But an archive entry
// over MaxFileBytes reaches skipBuildFiles without its content (Archive
// refused it and dropped its bytes), so BuildFileSkip cannot read the
// head, and the build's large general index (genindex-all.html of a big
// project) becomes a refused document, a failure row, where the walk of
// the same directory (which reads the head from disk whatever the size)
// skips it, and the archive skips it when it is small.
func TestHR43OversizedSphinxIndexWithoutSearchIndexIsSkipped(t *testing.T) {
	t.Parallel()
	head := `<html><head><script src="_static/documentation_options.js?v=1"></script></head>`
	big := strings.Repeat(`<li><a href="reference/configuration.html#allow-query">allow-query</a></li>`, 64)
	entries := []entry{
		{name: "arm/_static/documentation_options.js", body: "var DOCUMENTATION_OPTIONS = {};"},
		{name: "arm/index.html", body: head + "<body><h1>BIND 9 Administrator Reference Manual</h1><p>BIND is a name server.</p></body></html>"},
		{name: "arm/genindex.html", body: head + "<body><h1>Index</h1><ul>" + big + "</ul></body></html>"},
		{name: "arm/genindex-all.html", body: head + "<body><h1>Index</h1><ul>" + big + "</ul></body></html>"},
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
			if rel == "arm/index.html" || strings.HasPrefix(rel, "arm/_static/") {
				continue
			}
			if f.Skip == "" || f.Refuse != "" {
				t.Errorf("%s: %s: skip %q, refuse %q; want skipped (a Sphinx build's index, no document), not refused as too large", tc.name, rel, f.Skip, f.Refuse)
			}
		}
	}
}
