package analyze

import (
	"strings"
	"testing"
)

// TestTagLikeSpansKeepTheirWords: spans PostgreSQL's parser would drop as
// XML tags (a Python repr, a placeholder, a generic type) keep their words
// in a chunk's keywords and in a question's keyword text; a URL or an
// e-mail address in angle brackets, which the parser reads as such, and a
// comparison, are left as they are.
func TestTagLikeSpansKeepTheirWords(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"fail(msg, exc=<class 'jinja2.exceptions.TemplateSyntaxError'>)": "class 'jinja2.exceptions.TemplateSyntaxError'",
		"celery -A proj amqp queue.purge <queue name>":                   "queue name",
		"List<String> items and </div> closing":                          "String div",
		"see <https://example.com/x> or mail <foo@bar.com>":              "",
		"if a < b and c > d":                                             "",
	} {
		if got := TagText(text); got != want {
			t.Errorf("TagText(%q) = %q, want %q", text, got, want)
		}
	}
	if k := Keywords("exc=<class 'jinja2.exceptions.TemplateSyntaxError'>"); !strings.Contains(k, "jinja2.exceptions.TemplateSyntaxError") {
		t.Errorf("Keywords leaves out the repr's name: %q", k)
	}
	if q := Query("Why <class 'jinja2.exceptions.TemplateSyntaxError'> here?"); strings.Contains(q, "<") || !strings.Contains(q, "jinja2.exceptions.TemplateSyntaxError") {
		t.Errorf("Query keeps the tag: %q", q)
	}
}

// The words PostgreSQL's parser drops after a script or style tag, up to
// its closing tag, are kept for the index; none where the text has none.
func TestSkippedText(t *testing.T) {
	for text, want := range map[string]string{
		"embedded Javascript (any strings found in a <script> tag) and CSS":     "tag) and CSS",
		"a <script> tag holds javascript </script> and more <STYLE> rules here": "tag holds javascript rules here",
		"x <script src=a.js> y <b>z</b>":                                        "y  b z /b",
		"no tags, a < b and c > d":                                              "",
		"<scripts> are no script tags":                                          "",
	} {
		got := strings.Join(strings.Fields(SkippedText(text)), " ")
		if got != strings.Join(strings.Fields(want), " ") {
			t.Errorf("SkippedText(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestTagTextOnlyWhatTheParserDrops(t *testing.T) {
	t.Parallel()
	// What PostgreSQL 15's default parser drops as a tag (checked with
	// to_tsvector('simple', …)): the name whatever it holds, then only
	// ASCII letters, digits, blanks, "=-_#/:.&?%~" and quoted values.
	for span, dropped := range map[string]bool{
		"<x.y z>": true, "<A000表示设置>": true, "<x a='表示'>": true, `<x y="a,b(c)">`: true, "<x y~z%>": true,
		"<x 表示>": false, "<x (y)>": false, "<x y;z>": false, "<x a,b>": false, "<x @y>": false, "<x é>": false, "<x y{z}>": false,
	} {
		if got := TagText("see "+span+" here") != ""; got != dropped {
			t.Errorf("TagText(%q) non-empty = %v, want %v", span, got, dropped)
		}
	}
}
