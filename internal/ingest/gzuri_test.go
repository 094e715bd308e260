package ingest_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// TestGzippedPageIsCitedByItsWebAddress: under a base URI a gzipped page's
// source_uri is the address of the page it holds ("changelog.html": Debian
// compresses the documentation it installs, the site serves the page; held-
// out trials cited ".../changelog.html.gz", which does not exist). A file of
// that name beside it keeps the ".gz" (two documents, two addresses), and
// without a base URI the file: URI names the file itself.
func TestGzippedPageIsCitedByItsWebAddress(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	for name, data := range map[string][]byte{
		"changelog.html.gz": gz("<html><head><title>Changelog</title></head><body><main><p>Release 2.0 adds the quokka codec.</p></main></body></html>"),
		"notes.txt.gz":      gz("Release notes: the wombat codec is gone."),
		"notes.txt":         []byte("Notes on the numbat codec, written by hand."),
	} {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test/"})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, f := range files {
		uris = append(uris, f.SourceURI)
	}
	slices.Sort(uris)
	if want := []string{"https://docs.test/changelog.html", "https://docs.test/notes.txt", "https://docs.test/notes.txt.gz"}; !slices.Equal(uris, want) {
		t.Errorf("source_uris %q, want %q", uris, want)
	}
	files, _, err = ingest.Walk([]string{filepath.Join(root, "changelog.html.gz")}, ingest.WalkOptions{})
	if err != nil || len(files) != 1 || files[0].SourceURI != ingest.FileURI(filepath.Join(root, "changelog.html.gz")) {
		t.Errorf("without a base URI: %v, %v; want the file's own file: URI", files, err)
	}
}
