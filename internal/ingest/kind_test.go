package ingest

import (
	"fmt"
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
)

// TestKindOfRedirectIsSkipped: an HTML page that only redirects is skipped
// (a directory of texi2any output has one per node), and so is one whose
// only text is the site's chrome, not a failed file that fails the run; a
// page with no text at all still fails.
func TestKindOfRedirectIsSkipped(t *testing.T) {
	t.Parallel()
	redirect := fmt.Errorf("ingest a.html: %w", fmt.Errorf("%w to %q", extract.ErrRedirect, "b.html"))
	if k := KindOf(redirect); k != KindSkipped {
		t.Errorf("KindOf(redirect) = %s, want skipped", k)
	}
	if k := KindOf(fmt.Errorf("ingest c.html: %w", extract.ErrChromeOnly)); k != KindSkipped {
		t.Errorf("KindOf(chrome only) = %s, want skipped", k)
	}
	if k := KindOf(fmt.Errorf("ingest e.html: %w", extract.ErrEmpty)); k != KindFailed {
		t.Errorf("KindOf(empty) = %s, want failed", k)
	}
}
