package job_test

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/job"
)

// TestArchiveOfASphinxBuildSkipsWhatAWalkSkips: an archive of a Sphinx HTML
// build (the README's recipe, `tar czf docs.tgz -C …/html .`) holds the
// build's copies and assets beside its pages; as a `ragd ingest` walk does,
// the job skips _sources/, _static/, _modules/, the index and search pages
// and the files of types ragd does not read, and stores the pages. A
// directory of that name outside a build is a document's.
func TestArchiveOfASphinxBuildSkipsWhatAWalkSkips(t *testing.T) {
	t.Parallel()
	page := "<html><body><h1>Guide</h1><p>How to validate a schema.</p></body></html>"
	entries := []entry{
		{name: "./index.html", body: page},
		{name: "./searchindex.js", body: "Search.setIndex({})"},
		{name: "./objects.inv", body: "# Sphinx inventory"},
		{name: "./genindex.html", body: page},
		{name: "./search.html", body: page},
		{name: "./_sources/index.rst.txt", body: "Guide\n=====\n\nHow to validate a schema."},
		{name: "./_static/basic.css", body: "body { margin: 0 }"},
		{name: "./_static/sample.html", body: page},
		{name: "./_modules/pkg/core.html", body: page},
		{name: "./guide/usage.html", body: page},
		{name: "./notes/_static/kept.md", body: "# Kept\n\nA note in a folder named _static, outside any build."},
	}
	want := map[string]bool{ // stored (not skipped)
		"index.html": true, "guide/usage.html": true, "notes/_static/kept.md": true,
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{{"tar.gz", tarball(t, true, entries...)}, {"zip", zipfile(t, entries...)}} {
		files, err := readArchive(job.Input{BaseURI: "https://docs.test/"}, tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(files) != len(entries) {
			t.Fatalf("%s: %d files, want %d (every entry recorded)", tc.name, len(files), len(entries))
		}
		for _, f := range files {
			rel := strings.TrimPrefix(f.SourceURI, "https://docs.test/")
			switch {
			case want[rel] && f.Skip != "":
				t.Errorf("%s: %s skipped (%s); it is a page", tc.name, rel, f.Skip)
			case !want[rel] && f.Skip == "":
				t.Errorf("%s: %s stored; a walk skips it", tc.name, rel)
			case !want[rel] && f.Content != nil:
				t.Errorf("%s: %s skipped but its bytes kept", tc.name, rel)
			}
		}
	}
}

// TestArchiveSkipsUnreadTypesUnread: an entry of a type ragd does not read
// (a build's video, its scripts) is skipped by its name, before its bytes
// are read: a zip's does not count against MaxJobBytes, so a build with
// large assets is no 413, and its page is stored.
func TestArchiveSkipsUnreadTypesUnread(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("v", 4096)
	data := zipfile(t, entry{name: "_static/demo.mp4", body: big}, entry{name: "guide.md", body: "# Guide\n\nHow to validate a schema."})
	files, err := readArchive(job.Input{Limits: job.Limits{MaxJobBytes: 1024}}, data)
	if err != nil {
		t.Fatalf("an archive whose only large entry is no document: %v", err)
	}
	if len(files) != 2 || files[0].Skip == "" || files[0].Content != nil || files[1].Skip != "" || len(files[1].Content) == 0 {
		t.Errorf("files: %+v; want the video skipped unread and the page stored", files)
	}
}
