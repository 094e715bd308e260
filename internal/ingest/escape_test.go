package ingest_test

import (
	"context"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// A file's name with characters a URI's path cannot hold becomes a
// source_uri that is a URL (a space, '#', '?', '%' percent-encoded; other
// characters and other scripts kept), under a base URI and as a file: URI
// alike, and it reads back as the file's name.
func TestSourceURIsAreEscapedURLs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	names := map[string]string{
		"python 2 sunset.html": "python%202%20sunset.html",
		"a#b?c%d.md":           "a%23b%3Fc%25d.md",
		"notes (v2)+draft.md":  "notes%20(v2)+draft.md",
		"日本語.txt":              "日本語.txt",
	}
	for name := range names {
		if err := os.WriteFile(filepath.Join(root, name), []byte("# Title\n\nSome text of "+name+".\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, base := range []string{"https://docs.example.test/v1/", ""} {
		files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			got = append(got, f.SourceURI)
			u, err := url.Parse(f.SourceURI)
			if err != nil || u.Fragment != "" || u.RawQuery != "" {
				t.Errorf("%s: not one URL with a path only: %v (fragment %q, query %q)", f.SourceURI, err, u.Fragment, u.RawQuery)
				continue
			}
			if filepath.Base(u.Path) != filepath.Base(f.Path) {
				t.Errorf("%s reads back as %q, want the file's name %q", f.SourceURI, filepath.Base(u.Path), filepath.Base(f.Path))
			}
		}
		var want []string
		for _, esc := range names {
			if base != "" {
				want = append(want, "https://docs.example.test/v1/"+esc)
			} else {
				want = append(want, ingest.FileURI(root)+"/"+esc)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("base %q: source_uris\n %q\nwant\n %q", base, got, want)
		}
	}
}

// A document stored under the unescaped spelling of a file's source_uri
// (as ragd wrote it before) is that file's superseded copy: a pruning run
// replaces it by the escaped one instead of keeping both.
func TestPruneReplacesTheUnescapedSpelling(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a b.md"), []byte("# Spaced\n\nA page whose name has a space.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "plain.md"), []byte("# Plain\n\nA page with a plain name.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const base = "https://example.test/docs"
	for _, uri := range []string{base + "/a b.md", base + "/plain.md"} {
		if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte("# Old\n\nStored before.\n")}); err != nil {
			t.Fatal(err)
		}
	}
	// Stored by an ingest run older than writers' records, as migration
	// 00035 leaves such documents: no writer known.
	forgetWriters(t, tn)
	files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := p.IngestFiles(ctx, tn, files, 1, ingest.Prune{Prefix: base + "/", Roots: []string{root}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{base + "/a b.md"}; !slices.Equal(sum.DeletedDocuments, want) || sum.Added != 1 || sum.Updated != 1 {
		t.Fatalf("summary %+v: want the escaped page added, the plain one updated, %q deleted", sum, want)
	}
	stored, err := p.ListSourceURIs(ctx, tn, base+"/")
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(stored))
	if want := []string{base + "/a%20b.md", base + "/plain.md"}; !slices.Equal(got, want) {
		t.Errorf("documents %q, want %q", got, want)
	}
}
