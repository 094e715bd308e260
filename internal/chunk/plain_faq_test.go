package chunk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
)

// TestSplitPlainTextFAQKeepsQuestionWithAnswer: a plain-text FAQ was one
// headingless run of paragraphs, so chunks were cut anywhere: a question
// ended one chunk and its answer opened the next (49 of the Vim FAQ's 179
// chunks), and every heading path was the file name. Each question is now
// a section: its chunk holds the answer and its path names the question.
func TestSplitPlainTextFAQKeepsQuestionWithAnswer(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("A FAQ about the editor." + strings.Repeat(" It gathers questions from the mailing list.", 10) + "\n\n")
	for s := 1; s <= 3; s++ {
		fmt.Fprintf(&b, "%s\n\nSECTION %d - TOPIC %d\n\n\n", strings.Repeat("=", 77), s, s)
		for q := 1; q <= 4; q++ {
			fmt.Fprintf(&b, "%d.%d. How do I do thing %d of topic %d in\n     the editor?\n\n", s, q, q, s)
			fmt.Fprintf(&b, "Answer%d%d starts here.", s, q)
			for range 12 {
				b.WriteString(" The editor does it with a command you type in normal mode.")
			}
			b.WriteString("\n\n")
		}
	}
	doc, err := extract.Extract("text/plain", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	doc.Title = "faq.txt"
	chunks, err := Split(doc, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for s := 1; s <= 3; s++ {
		for q := 1; q <= 4; q++ {
			question := fmt.Sprintf("%d.%d. How do I do thing %d of topic %d in the editor?", s, q, q, s)
			answer := fmt.Sprintf("Answer%d%d starts here.", s, q)
			found := false
			for _, c := range chunks {
				if strings.Contains(c.Content, answer) {
					found = true
					if !strings.Contains(c.Content, question) {
						t.Errorf("the chunk with %q does not hold its question; path %q", answer, c.HeadingPath)
					}
					if want := fmt.Sprintf("faq.txt > SECTION %d - TOPIC %d > %s", s, s, question); c.HeadingPath != want {
						t.Errorf("path %q, want %q", c.HeadingPath, want)
					}
				}
			}
			if !found {
				t.Errorf("%q in no chunk", answer)
			}
		}
	}
}
