package answer

import (
	"strings"
	"testing"
)

// TestTermNamedByItsSentenceIsNotRepeated: an entry whose sentence opens
// with its own term ("PLONK_LOCKED: the ledger is locked means …" under
// PLONK_LOCKED) is quoted once with it; an entry whose sentence does not
// name it still gets it as its label.
func TestTermNamedByItsSentenceIsNotRepeated(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "Plonk errors", HeadingPath: "Plonk errors",
		Content: "Plonk errors\n\nPLONK_LOCKED\n\nPLONK_LOCKED: the ledger is locked means another writer holds the ledger lock. Wait for it.\n\n" +
			"PLONK_FULL\n\nThe ledger has no room left for another entry. Archive old ones."}
	r := Extractive("What does PLONK_LOCKED mean?", []Source{src}, 3)
	if strings.Contains(r.Answer, "PLONK_LOCKED: PLONK_LOCKED") || !strings.Contains(r.Answer, "PLONK_LOCKED: the ledger is locked means") {
		t.Errorf("answer %q: want the term said once", r.Answer)
	}
	r = Extractive("What does PLONK_FULL mean?", []Source{src}, 3)
	if !strings.Contains(r.Answer, "PLONK_FULL: The ledger has no room left") {
		t.Errorf("answer %q: want the entry labelled with its term", r.Answer)
	}
}
