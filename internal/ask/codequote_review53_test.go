package ask

import (
	"slices"
	"testing"
)

// TestQuoteOfCodeIsPlacedByItsCode: an answer that quotes only code cites
// it after the block; the code is what places the quote in its source (and
// so its section's anchor), where before nothing was found and the link
// went to the chunk's first section.
func TestQuoteOfCodeIsPlacedByItsCode(t *testing.T) {
	t.Parallel()
	text := "```\n$ pip uninstall sampleproject\nProceed (Y/n)? y\n```\n\n[1]"
	if got, want := quotedSentences(text, 1), []string{"$ pip uninstall sampleproject\nProceed (Y/n)? y"}; !slices.Equal(got, want) {
		t.Errorf("quotedSentences = %q, want %q", got, want)
	}
	content := "Common tasks\n\nUninstall a package\n\n$ pip uninstall sampleproject\nProceed (Y/n)? y\n"
	from, _, ok := locate(content, quotedSentences(text, 1)[0])
	if !ok || from != len("Common tasks\n\nUninstall a package\n\n") {
		t.Errorf("locate: %d, %v", from, ok)
	}
	if got := fencedBefore("Run it [1]:\n\n```sh\nmake\n```"); got != "make" {
		t.Errorf("fencedBefore = %q", got)
	}
	if got := fencedBefore("No code here."); got != "" {
		t.Errorf("fencedBefore of prose = %q", got)
	}
}
