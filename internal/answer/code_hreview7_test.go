package answer

import (
	"strings"
	"testing"
)

// TestExtractiveQuotesListLiteralsInCode_hreview7: code is quoted as written
// except citation-shaped markers after a blank (codeMarker). A list or array
// literal of numbers after a blank is that shape too, and is removed from
// ordinary code: `ports = [80, 443]` is quoted as `ports =`, `grep [0-9]
// app.log` as `grep  app.log`, `"retries": [1, 5],` as `"retries": ,`
// (a value after = or :, or a number 0, is never a citation). The answer then
// quotes code the document does not contain, with another meaning.
func TestExtractiveQuotesListLiteralsInCode_hreview7(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"ports = [80, 443]",
		"weights = [1, 2, 3]",
		"grep [0-9] app.log",
		`"retries": [1, 5],`,
	} {
		src := []Source{{ChunkID: "a", SourceURI: "config.md", Title: "Config", Content: "Configuring the listener\n\nTo configure the listener ports, write this line in the listener configuration:\n\n```\n" + line + "\n```\n\nRestart the listener afterwards."}}
		r := Extractive("How do I configure the listener ports?", src, 3)
		if !strings.Contains(r.Answer, line) {
			t.Errorf("code %q: Answer = %q, want the code quoted as written", line, r.Answer)
		}
	}
}

// TestStripCodeMarkersLeavesCodeAlone_hreview7: the function itself, on lines
// of ordinary code (Python, shell, JSON).
func TestStripCodeMarkersLeavesCodeAlone_hreview7(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"ports = [80, 443]", "grep [0-9] app.log", `"retries": [1, 5],`, "return [0]"} {
		if got := stripCodeMarkers(line); got != line {
			t.Errorf("stripCodeMarkers(%q) = %q, want the line unchanged", line, got)
		}
	}
}
