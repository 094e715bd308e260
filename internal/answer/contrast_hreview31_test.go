package answer

import (
	"strings"
	"testing"
)

// TestHowToCompareIsNoDifferenceQuestion_hreview31: asksDifference matches
// "compare", so "How do I compare two dates?" — a how-to question — counts
// as a question about how things differ, and the contrast lead (e86f125)
// gives a sentence with "Unlike" a section lead's bonus. What the user
// sees: the answer is "Unlike timestamps, dates carry no time zone, so two
// equal dates compare equal everywhere [1]." — it never says how to
// compare them; before the change it quoted "To compare two dates, use the
// ordinary comparison operators such as < and =".
func TestHowToCompareIsNoDifferenceQuestion_hreview31(t *testing.T) {
	t.Parallel()
	src := []Source{{Content: "# Dates\n\n## Comparing dates\n\nDates are stored as a count of days. To compare two dates, use the " +
		"ordinary comparison operators such as < and =.\n\nUnlike timestamps, dates carry no time zone, so two equal dates compare equal everywhere."}}
	r := Extractive("How do I compare two dates?", src, 2)
	if !strings.Contains(r.Answer, "comparison operators") {
		t.Errorf("answer %q does not say how to compare two dates (the comparison operators)", r.Answer)
	}
}
