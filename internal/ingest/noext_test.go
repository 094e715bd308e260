package ingest_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
)

// TestWalkReadsNamedExtensionlessFilesAsText: a file without an extension
// that the caller names, by an --include glob ("FAQ") or on its own, is
// read as what its bytes are (no type declared: text here) (libcurl's FAQ, KNOWN_BUGS and TODO had been refused
// as "file extension """ even when included by name); left out and
// counted by default, and under a broad glob, as before.
func TestWalkReadsNamedExtensionlessFilesAsText(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, text := range map[string]string{
		"FAQ":       "FAQ\n\n1. Can the tool download recursively?\n\nNo. It transfers the URLs it is given.\n",
		"configure": "#!/bin/sh\necho configuring\n",
		"guide.md":  "# Guide\n\nHow to use the tool.\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := func(files []ingest.File) (out []string) {
		for _, f := range files {
			out = append(out, filepath.Base(f.Path)+"="+f.ContentType)
		}
		slices.Sort(out)
		return out
	}
	ignored := map[string]int{}
	files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test/", Ignored: ignored})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(files); !slices.Equal(got, []string{"guide.md=" + extract.TypeMarkdown}) || ignored[""] != 2 {
		t.Errorf("by default: %q, %d left out without an extension; want the guide alone, 2 left out", got, ignored[""])
	}
	for _, include := range [][]string{{"FAQ", "*.md"}, {"F*", "*.md"}} {
		files, _, err = ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test/", Include: include})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := names(files), []string{"FAQ=", "guide.md=" + extract.TypeMarkdown}; !slices.Equal(got, want) {
			t.Errorf("--include %q: %q, want %q", include, got, want)
		}
	}
	files, _, err = ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test/", Include: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(files); !slices.Equal(got, []string{"guide.md=" + extract.TypeMarkdown}) {
		t.Errorf("--include '*': %q, want the guide alone (a broad glob asks for no file by name)", got)
	}
	// What the bytes are decides how each is read, as the pipeline
	// reads it (extract.Detect with the walk's type): text, an HTML page
	// saved without an extension, and binary bytes refused.
	for name, content := range map[string]string{"notes": "Plain notes.\n", "page": "<!DOCTYPE html><html><body><p>A page.</p></body></html>", "blob": "\x7fELF\x02\x01\x01\x00\x00\x00"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, _, err = ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test/", Include: []string{"notes", "page", "blob"}})
	if err != nil || len(files) != 3 {
		t.Fatalf("--include notes page blob: %d files, %v", len(files), err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		typ, err := extract.Detect(data, f.ContentType, f.SourceURI)
		switch want := map[string]string{"notes": extract.TypePlain, "page": extract.TypeHTML, "blob": ""}[filepath.Base(f.Path)]; {
		case want == "" && err == nil:
			t.Errorf("%s: read as %s, want binary bytes refused", f.Path, typ)
		case want != "" && (err != nil || typ != want):
			t.Errorf("%s: read as %q (%v), want %s", f.Path, typ, err, want)
		}
	}
	files, fails, err := ingest.Walk([]string{filepath.Join(root, "FAQ")}, ingest.WalkOptions{BaseURI: "https://docs.test/"})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(files); !slices.Equal(got, []string{"FAQ="}) || len(fails) != 0 {
		t.Errorf("named on its own: %q (failures %v), want FAQ as text", got, fails)
	}
}
