package chunk

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/extract"
)

// manualDir is where Debian's postgresql-doc-15 installs the HTML manual.
const manualDir = "/usr/share/doc/postgresql-doc-15/html"

func manualFiles(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(manualDir, "*.html"))
	if len(files) < 1000 {
		t.Fatalf("PostgreSQL 15 manual not found in %s (%d pages): run make setup (installs postgresql-doc-15)", manualDir, len(files))
	}
	return files
}

// TestManual extracts and splits every page of the PostgreSQL 15 manual with
// the default config and checks every invariant on real data.
func TestManual(t *testing.T) {
	t.Parallel()
	files := manualFiles(t)
	cfg := DefaultConfig()
	start := time.Now()
	var tokens []int
	failed, titled := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := extract.Extract(extract.TypeHTML, data)
		if errors.Is(err, extract.ErrTitleOnly) {
			// A chapter's page that is its title above the chapter's
			// table of contents (textsearch.html, "Chapter 12. Full
			// Text Search"): no document, as a Sphinx toctree page is.
			titled++
			continue
		}
		if err != nil {
			if !errors.Is(err, extract.ErrEmpty) {
				t.Errorf("%s: %v", filepath.Base(f), err)
			}
			failed++
			continue
		}
		chunks, err := Split(doc, cfg)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(f), err)
		}
		checkChunks(t, doc, cfg, chunks)
		checkCodeWhole(t, doc, cfg, chunks)
		checkTableHeaders(t, doc, cfg, chunks)
		for _, c := range chunks {
			tokens = append(tokens, c.Tokens)
		}
	}
	if failed > len(files)/100 {
		t.Errorf("%d of %d pages failed to extract", failed, len(files))
	}
	if titled > len(files)/50 {
		t.Errorf("%d of %d pages are only their title: chapter pages are fewer", titled, len(files))
	}
	slices.Sort(tokens)
	q := func(p float64) int { return tokens[int(float64(len(tokens)-1)*p)] }
	t.Logf("%d pages, %d extracted, %d only their title, %d chunks, tokens p50=%d p95=%d max=%d, %v",
		len(files), len(files)-failed-titled, titled, len(tokens), q(0.5), q(0.95), tokens[len(tokens)-1], time.Since(start))
}
