package analyze

import (
	"slices"
	"strings"
	"testing"
)

// FusedParts skips every token holding ":" or "@" to leave URLs, mail
// addresses and times alone, but a colon or an at sign at the token's
// edge is neither:
//
//   - a traceback's last line, the text users paste most into questions
//     and that docs quote, glues the colon to the qualified class name
//     ("sqlalchemy.exc.OperationalError: no such table: users",
//     "werkzeug.exceptions.NotFound: 404 Not Found"); the parser reads the
//     name as one host lexeme, so without its last part a question quoting
//     the traceback still does not match the page that names
//     OperationalError, the exact blind spot FusedParts is meant to close;
//   - a decorator ("@pytest.mark.parametrize", "@app.route") has no local
//     part before the "@" (answerable.go's hostName tells the two apart
//     the same way): it is a dotted name, and "parametrize" is the word
//     people write alone.
//
// A real mail address and a URL must still give nothing.
func TestFusedPartsOfNamesAtAColonOrAnAt(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"sqlalchemy.exc.OperationalError: no such table: users", "OperationalError"},
		{"werkzeug.exceptions.NotFound: 404 Not Found", "NotFound"},
		{"Use @pytest.mark.parametrize to run a test with several inputs", "parametrize"},
		{"Register the view with @app.route('/').", "route"},
	} {
		got := FusedParts(tc.text)
		if !slices.Contains(strings.Fields(got), tc.want) {
			t.Errorf("FusedParts(%q) = %q, want %q among them", tc.text, got, tc.want)
		}
		if q := Query(tc.text); !slices.Contains(strings.Fields(q), tc.want) {
			t.Errorf("Query(%q) = %q sends no %q", tc.text, q, tc.want)
		}
	}
	for _, s := range []string{"write to user@example.com", "see https://docs.python.org/3/library/os.html"} {
		if got := FusedParts(s); got != "" {
			t.Errorf("FusedParts(%q) = %q, want nothing", s, got)
		}
	}
}
