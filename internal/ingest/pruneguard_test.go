package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// A prune that would delete more than ten documents and more than half of
// those under its prefix — a subdirectory ingested with its parent's base
// URI, every other page's file "gone" — deletes nothing and fails with
// ErrPruneGuard naming the count; the same run with Force deletes them.
func TestPruneGuardStopsAMistakenPrune(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	sub := filepath.Join(root, "guide")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 14 {
		dir := root
		if i < 2 {
			dir = sub
		}
		text := fmt.Sprintf("# Page %d\n\nText of page %d about topic %d.\n", i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("page%d.md", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const base = "https://example.test/docs"
	files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base})
	if err != nil || len(files) != 14 {
		t.Fatalf("walk: %d files, %v", len(files), err)
	}
	if sum, err := p.IngestFiles(ctx, tn, files, 2, ingest.Prune{}, nil); err != nil || sum.Added != 14 {
		t.Fatalf("first run: %+v, %v", sum, err)
	}
	// The subdirectory alone, with the parent's base URI.
	subFiles, _, err := ingest.Walk([]string{sub}, ingest.WalkOptions{BaseURI: base})
	if err != nil || len(subFiles) != 2 {
		t.Fatalf("walk of the subdirectory: %d files, %v", len(subFiles), err)
	}
	prune := ingest.Prune{Prefix: base + "/", Roots: []string{sub}}
	sum, err := p.IngestFiles(ctx, tn, subFiles, 2, prune, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Its two pages are new documents (page0.md at the top of the prefix);
	// the other 14 are "gone" from under the subdirectory.
	if sum.Deleted != 0 || sum.Failed != 1 || len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0].Reason, "it would delete 14 of the 16 documents") ||
		!strings.HasPrefix(sum.Failures[0].Reason, ingest.ErrPruneGuard.Error()) {
		t.Fatalf("guarded prune: %+v", sum)
	}
	if docs, _ := consistency(t, tn); docs != 16 {
		t.Fatalf("%d documents after a stopped prune, want all 16", docs)
	}
	// Below the guard, a prune deletes: two pages removed and the two
	// mistaken copies, 4 of 16.
	for _, name := range []string{"page2.md", "page3.md"} {
		if err := os.Remove(filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	files, _, err = ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base})
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := p.IngestFiles(ctx, tn, files, 2, ingest.Prune{Prefix: base + "/", Roots: []string{root}}, nil); err != nil || sum.Deleted != 4 || sum.Failed != 0 {
		t.Fatalf("ordinary prune: %+v, %v", sum, err)
	}
	// Forced, the subdirectory's run deletes the other twelve.
	prune.Force = true
	if sum, err := p.IngestFiles(ctx, tn, subFiles, 2, prune, nil); err != nil || sum.Deleted != 12 || sum.Failed != 0 {
		t.Fatalf("forced prune: %+v, %v", sum, err)
	}
	if docs, _ := consistency(t, tn); docs != 2 {
		t.Fatalf("%d documents after the forced prune, want the subdirectory's 2", docs)
	}
}
