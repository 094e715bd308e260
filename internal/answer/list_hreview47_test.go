package answer

import (
	"strings"
	"testing"
)

// TestHReview47AnnouncedListKeepsReferent: when the announcing sentence
// opens with a back-reference ("It needs …"), the sentence it refers to
// stays, though dropped it would make room for the list.
func TestHReview47AnnouncedListKeepsReferent(t *testing.T) {
	content := "Widget PDF builds\n\n" +
		"The make widgetpdf target drives a large typesetting engine that a minimal installation leaves out. " +
		"It needs the following Debian packages:\n\n" +
		"- widget-fonts-recommended\n- widget-latex-recommended\n- widget-gyre\n- widget-latex-extra\n" +
		"- widget-lang-german\n- widget-lang-french\n- widget-lang-greek\n- widgetmk (a requirement for make widgetpdf)\n"
	src := []Source{{Content: content, Title: "Widget PDF builds", HeadingPath: "Widget PDF builds"}}
	q := "Which Debian packages does make widgetpdf need?"
	r := Extractive(q, src, 3)
	if strings.HasPrefix(r.Answer, "It needs") {
		t.Errorf("answer opens with a dangling back-reference: %q", r.Answer)
	}
}
