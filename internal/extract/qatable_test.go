package extract

import (
	"strings"
	"testing"
)

// TestQandATableIsDefinitions: DocBook's question-and-answer table (rows
// classed question and answer, Valgrind's FAQ) is read as definitions:
// each question a term linking to its own anchor, its answer the
// definition, not rows of "| 1.1. | How do you …" cited at the page's top;
// a division's title is its heading, its list of questions left out.
func TestQandATableIsDefinitions(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Valgrind Frequently Asked Questions</title></head><body>
<h1 id="faq">Valgrind Frequently Asked Questions</h1>
<table width="100%" summary="Q and A Div" border="0"><colgroup><col align="left" width="1%"><col></colgroup><tbody>
<tr class="qandadiv"><td align="left" valign="top" colspan="2"><a name="faq.background"></a><h3 class="title"><a name="faq.background"></a>1. Background</h3></td></tr>
<tr class="toc" colspan="2"><td align="left" valign="top" colspan="2">1.1. <a href="faq.html#faq.pronounce">How do you pronounce "Valgrind"?</a><br>1.2. <a href="faq.html#faq.java">Does Valgrind work with Java programs?</a><br></td></tr>
<tr class="question"><td align="left" valign="top"><a name="faq.pronounce"></a><a name="q-pronounce"></a><b>1.1.</b></td>
<td align="left" valign="top"><b>How do you pronounce "Valgrind"?</b></td></tr>
<tr class="answer"><td align="left" valign="top"><a name="a-pronounce"></a></td>
<td align="left" valign="top"><p>The "Val" as in the word "value".</p><p>The "grind" rhymes with "tinned".</p></td></tr>
<tr><td colspan="2"> </td></tr>
<tr class="question"><td align="left" valign="top"><a name="faq.java"></a><b>1.2.</b></td>
<td align="left" valign="top"><b>Does Valgrind work with Java programs?</b></td></tr>
<tr class="answer"><td align="left" valign="top"></td><td align="left" valign="top"><p>Not well: the JIT confuses it.</p></td></tr>
</tbody></table></body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range doc.Blocks {
		switch b.Kind {
		case KindTerm:
			got = append(got, "T "+doc.Text[b.Start:b.End]+"#"+b.Anchor)
		case KindParagraph:
			got = append(got, "P"+string(rune('0'+b.Definition))+" "+doc.Text[b.Start:b.End])
		case KindTable:
			got = append(got, "TABLE")
		case KindHeading:
			got = append(got, "H "+doc.Text[b.Start:b.End]+"#"+b.Anchor)
		}
	}
	want := []string{"H Valgrind Frequently Asked Questions#faq", "H 1. Background#faq.background", `T 1.1. How do you pronounce "Valgrind"?#faq.pronounce`, `P1 The "Val" as in the word "value".`, `P1 The "grind" rhymes with "tinned".`,
		`T 1.2. Does Valgrind work with Java programs?#faq.java`, `P1 Not well: the JIT confuses it.`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
