package answer

import (
	"strings"
	"testing"
)

// numberedTitle reads any "Word N: Title Case" line as a step's heading.
// But a labelled value whose label ends in a number and whose value is
// capitalised is a field, and often the answer: a support matrix
// ("Python 2: Not Supported"), an API's error list ("Error 404: Unknown
// Resource"), a plan table written as lines. Read as headings they are
// dropped from the units, and the answer to "Is Python 2 supported?"
// becomes "We recommend using the latest version of Python." (before this
// change the field lines were quoted).
func TestNumberedFieldIsNotATitle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		question, heading, content, want string
	}{
		{"Is Python 2 supported?", "Installation > Python Version",
			"Python Version\n\nWe recommend using the latest version of Python.\n\nPython 3: Supported\n\nPython 2: Not Supported",
			"Python 2: Not Supported"},
		{"What does error 404 mean?", "API > Errors",
			"Errors\n\nThe API returns errors as JSON objects with a message.\n\nError 401: Missing Token\n\nError 404: Unknown Resource",
			"Error 404: Unknown Resource"},
	} {
		if !fieldLine(tc.want) {
			t.Errorf("%q is not a field line", tc.want)
		}
		r := Extractive(tc.question, []Source{{N: 1, HeadingPath: tc.heading, Content: tc.content}}, 3)
		if !strings.Contains(r.Answer, tc.want) {
			t.Errorf("answer to %q does not quote %q:\n%s", tc.question, tc.want, r.Answer)
		}
	}
}
