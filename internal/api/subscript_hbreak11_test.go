package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestExtractiveKeepsSubscripts (h-break11): the extractive answerer strips
// "citation-like markers" from the sentences it quotes (docs/SECURITY.md,
// so that a planted "[7]" cannot pose as a citation), but it strips every
// bracketed number, including subscripts glued to a name and inline code:
//
//	source: The zentool script reads its input file name from sys.argv[1]
//	        and its output file name from sys.argv[2].
//	answer: The zentool script reads its input file name from sys.argv and
//	        its output file name from sys.argv [1].
//
// "grid.rows[2][3] picks the third column" becomes "the expression
// grid.rows picks the third column", and the inline code `SELECT quux_scores[1] FROM
// quux_players;` is quoted "SELECT quux_scores FROM quux_players;" — a
// query that returns the whole array — cited to a page that says
// otherwise. The answer is presented as a word-for-word quotation.
//
// Expected: a bracketed number attached to the preceding word (a subscript
// or index: no blank before "[", as in sys.argv[1], grid.rows[2][3],
// quux_scores[1]) is quoted as written, at least on a name shaped like code
// (a dot, an underscore); a footnote after a plain word ("Paris[1]",
// "Paris[1][2]") may still be dropped.
func TestExtractiveKeepsSubscripts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(editor, "zentool.md", "# Zentool arguments\n\nThe zentool script reads its input file name from sys.argv[1] "+
		"and its output file name from sys.argv[2].\n\nIn zentool, the expression grid.rows[2][3] picks the third column of the second row.\n")
	b.upsert(editor, "quux.md", "# Quux arrays\n\nTo read the first quux element, run `SELECT quux_scores[1] FROM quux_players;` in psql.\n")
	for _, c := range []struct{ question, want string }{
		{"where does the zentool script read its input file name from?", "sys.argv[1]"},
		{"which zentool expression picks the third column of the second row?", "grid.rows[2][3]"},
		{"how do I read the first quux element?", "SELECT quux_scores[1] FROM quux_players;"},
	} {
		ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
			body: map[string]any{"question": c.question}}), http.StatusOK)
		if ar.Refused {
			t.Errorf("%q: refused (%s); the premise is an answer quoting the sentence", c.question, ar.RefusalReason)
			continue
		}
		// Kept subscripts are quoted in a code span (no marker is read
		// from one): the text is the source's without the span's marks.
		if !strings.Contains(strings.ReplaceAll(ar.Answer, "`", ""), c.want) {
			t.Errorf("%q: the quotation lost %q:\n%s", c.question, c.want, ar.Answer)
		}
	}
}

// TestExtractiveKeepsIntervals (h-break11): the same stripping removes
// mathematical intervals, which are written like citation lists:
//
//	source: The blorp ratio must lie in the interval [0, 1], and the blorp
//	        level is an integer in [1, 10].
//	answer: The blorp ratio must lie in the interval, and the blorp level is
//	        an integer in [1].
//
// The answer to "what range must the blorp ratio lie in?" is deleted from
// the quotation, and the citation marker that follows now reads as the
// range ("an integer in [1]"). Neither [0, 1] (0 is no source number) nor
// [1, 10] (there is one source) could be a citation of this answer.
//
// Expected: the interval is not deleted from the quotation: quoted as
// written when it cannot be a citation of the answer (0, a number past
// the sources), or with its brackets neutralised so that it cannot read as
// a marker; never dropped so that the sentence loses what it says and the
// answer's own marker reads as the value.
func TestExtractiveKeepsIntervals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	for i := range 6 {
		b.upsert(editor, fmt.Sprintf("noise/%d.md", i), fmt.Sprintf("# Note %d\n\nThe ratio of servers to racks is %d, an integer kept in the inventory.\n", i, i))
	}
	b.upsert(editor, "blorp.md", "# Blorp settings\n\nThe blorp ratio must lie in the interval [0, 1], and the blorp level is an integer in [1, 10].\n")
	ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
		body: map[string]any{"question": "what range must the blorp ratio lie in?"}}), http.StatusOK)
	if ar.Refused {
		t.Fatalf("refused (%s); the premise is an answer quoting the sentence", ar.RefusalReason)
	}
	if !strings.Contains(ar.Answer, "0, 1") || !strings.Contains(ar.Answer, "1, 10") {
		t.Errorf("the quotation lost the intervals:\n%s", ar.Answer)
	}
}
