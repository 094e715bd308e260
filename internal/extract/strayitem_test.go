package extract

import (
	"strings"
	"testing"
)

// TestHTMLStrayListItemEndsAtHeading: bare <li> paragraphs with no <ul>
// (PLY's manual, "4.20 Miscellaneous Issues") make the parser nest the rest
// of the page in the last item; the headings after it are the page's
// sections, not labels inside the item, and the paragraphs under them are
// no list text. A heading inside an item of a real list stays a label.
func TestHTMLStrayListItemEndsAtHeading(t *testing.T) {
	t.Parallel()
	in := `<h2><a name="lex"></a>4. Lex</h2><h3><a name="misc"></a>4.20 Miscellaneous Issues</h3>
<p><li>The lexer requires input to be supplied as a single input string.</p>
<p><li>If you need flags, use the reflags option.
<h2><a name="yacc"></a>5. Parsing basics</h2>
<p>Yacc is used to parse language syntax.</p>
<h3><a name="tables"></a>5.1 Tables</h3>
<p>Pass write_tables=False to keep yacc from writing parsetab.py.</p>
<ul><li><h4>Label</h4> in a real list</li></ul>`
	doc := mustExtract(t, "html", in)
	var got []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			got = append(got, strings.Repeat("#", b.Level)+" "+doc.Text[b.Start:b.End]+" #"+b.Anchor)
		}
	}
	want := []string{"## 4. Lex #lex", "### 4.20 Miscellaneous Issues #misc", "## 5. Parsing basics #yacc", "### 5.1 Tables #tables"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("headings = %q, want %q", got, want)
	}
	paras := blockTexts(doc, KindParagraph)
	for _, p := range []string{"Yacc is used to parse language syntax.", "Pass write_tables=False to keep yacc from writing parsetab.py."} {
		if !strings.Contains(strings.Join(paras, "\n"), p) {
			t.Errorf("paragraph %q missing; paragraphs: %q", p, paras)
		}
	}
	items := blockTexts(doc, KindListItem)
	joined := strings.Join(items, "\n")
	if !strings.Contains(joined, "- The lexer requires input") || !strings.Contains(joined, "- If you need flags") || strings.Contains(joined, "Yacc is used") {
		t.Errorf("list items = %q: want the two stray items, and nothing after the heading", items)
	}
}
