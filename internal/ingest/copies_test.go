package ingest_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// writeModules writes five module pages of six paragraphs each and
// returns their bodies.
func writeModules(t *testing.T, root string) []string {
	t.Helper()
	var bodies []string
	for m := range 5 {
		var b strings.Builder
		fmt.Fprintf(&b, "<h1>Module %d</h1>", m)
		for p := range 6 {
			fmt.Fprintf(&b, "<p>Paragraph %d of module %d explains how the module handles its own requests and errors in detail.</p>", p, m)
		}
		bodies = append(bodies, b.String())
		page := "<html><head><title>Module " + fmt.Sprint(m) + "</title></head><body><main>" + b.String() + "</main></body></html>"
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("mod%d.html", m)), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return bodies
}

// An HTML page that gathers the paragraphs of the pages beside it (an
// all-in-one copy: Node.js's all.html, mdBook's print.html) is left out of
// a directory's ingest with a skipped line; named by --include, it is
// ingested; a large page of its own text is no copy.
func TestWalkLeavesOutAllInOneCopies(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	bodies := writeModules(t, root)
	all := "<html><head><title>All</title></head><body><main>" + strings.Join(bodies, "") + "</main></body></html>"
	if err := os.WriteFile(filepath.Join(root, "all.html"), []byte(all), 0o644); err != nil {
		t.Fatal(err)
	}
	var own strings.Builder
	for p := range 40 {
		fmt.Fprintf(&own, "<p>Original paragraph %d of the long guide says something no other page of the site repeats at all.</p>", p)
	}
	if err := os.WriteFile(filepath.Join(root, "guide.html"), []byte("<html><body><main><h1>Guide</h1>"+own.String()+"</main></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	var linked []string
	files, fails, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test", Linked: &linked})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f.Path))
	}
	if want := []string{"guide.html", "mod0.html", "mod1.html", "mod2.html", "mod3.html", "mod4.html"}; !slices.Equal(names, want) {
		t.Errorf("walked %q, want %q (all.html left out)", names, want)
	}
	if len(fails) != 1 || filepath.Base(fails[0].Path) != "all.html" || fails[0].Kind != ingest.KindSkipped ||
		!strings.Contains(fails[0].Reason, "all-in-one copy of 5 other pages") {
		t.Errorf("skipped %+v, want all.html as an all-in-one copy of 5 pages", fails)
	}
	if !slices.Equal(linked, []string{"https://docs.test/all.html"}) {
		t.Errorf("linked %q, want all.html's source_uri (a pruning run deletes its earlier copy)", linked)
	}
	// A glob of every page keeps the rule; naming the copy takes it in.
	files, _, err = ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test", Include: []string{"*.html"}})
	if err != nil || len(files) != 6 {
		t.Errorf("--include '*.html': %d files, %v; want the six without all.html", len(files), err)
	}
	files, _, err = ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test", Include: []string{"*.html", "all.html"}})
	if err != nil || len(files) != 7 {
		t.Errorf("--include '*.html' --include all.html: %d files, %v; want all seven", len(files), err)
	}
}

// A copy under no generator's name and under a fifth of the run's bytes is
// found by its size against the run's median page (the SQLite
// documentation's capi3ref.html, 627 KB, gathers c3ref/'s 200 pages; its
// changes.html, releaselog/'s); versions of one manual, each the size of
// the others, stay documents (TestHReview32VersionsOfOneManualAreNoCopies).
func TestWalkFindsALargeCopyByItsSize(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	var gathered strings.Builder
	for m := range 60 {
		var b strings.Builder
		fmt.Fprintf(&b, "<h1>Function %d</h1>", m)
		for p := range 40 {
			fmt.Fprintf(&b, "<p>Paragraph %d of function %d's page says how function %d treats its arguments, what it returns, and which errors it reports to the caller when the arguments are wrong.</p>", p, m, m)
		}
		if m < 14 {
			gathered.WriteString(b.String())
		}
		page := "<html><head><title>Function " + fmt.Sprint(m) + "</title></head><body><main>" + b.String() + "</main></body></html>"
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%02d.html", m)), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "reference.html"), []byte("<html><body><main>"+gathered.String()+"</main></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, fails, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 60 || len(fails) != 1 || filepath.Base(fails[0].Path) != "reference.html" || !strings.Contains(fails[0].Reason, "all-in-one copy of 14 other pages") {
		t.Errorf("%d files, skipped %+v; want the 60 pages and reference.html skipped as a copy of 14", len(files), fails)
	}
}

// Files of one directory with the same content (a gzipped file's as it
// decompresses) are ingested once: the others are skipped, naming the one
// kept, and listed for --prune; the same page in another directory (a
// version's tree) is a document of its own, and --include naming a copy
// takes it in.
func TestWalkSkipsIdenticalFilesOfADirectory(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	page := []byte("<html><head><title>Changes</title></head><body><main><h1>Changes</h1><p>Release 3.40 fixes the quokka bug.</p></main></body></html>")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(page); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"changes.html": page, "changes2.html": page, "changelog.html.gz": gz.Bytes(), "v2/changes.html": page,
		"other.html": []byte("<html><body><main><p>Another page.</p></main></body></html>")} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var linked []string
	files, fails, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test", Linked: &linked})
	if err != nil {
		t.Fatal(err)
	}
	if got := relPaths(root, files); !slices.Equal(got, []string{"changes.html", "other.html", "v2/changes.html"}) {
		t.Errorf("walked %q", got)
	}
	var skipped []string
	for _, f := range fails {
		skipped = append(skipped, filepath.Base(f.Path)+": "+f.Reason)
	}
	slices.Sort(skipped)
	if len(skipped) != 2 || !strings.HasPrefix(skipped[0], "changelog.html.gz: the same content as changes.html") ||
		!strings.HasPrefix(skipped[1], "changes2.html: the same content as changes.html") {
		t.Errorf("skipped %q", skipped)
	}
	if slices.Sort(linked); !slices.Equal(linked, []string{"https://docs.test/changelog.html.gz", "https://docs.test/changes2.html"}) {
		t.Errorf("linked for --prune %q", linked)
	}
	files, _, err = ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://docs.test", Include: []string{"*.html", "changes2.html"}})
	if err != nil || len(files) != 4 {
		t.Errorf("--include naming changes2.html: %d files, %v; want 4", len(files), err)
	}
}
