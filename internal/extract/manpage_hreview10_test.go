package extract

import (
	"strings"
	"testing"
)

// hr10ManPage wraps body (lines of a DESCRIPTION section) in a manual page
// formatted for a terminal, inside <pre>.
func hr10ManPage(body string) string {
	return "<html><body><pre>\nFROB(1)                 General Commands                 FROB(1)\n\n" +
		"NAME\n       frob - frob things\n\nDESCRIPTION\n" + body + "\n</pre></body></html>"
}

// TestHR10ManPageHyphenatedParagraphIsLinear: a manual page whose
// paragraph has many lines ending in a hyphenated word is read in time
// linear in its size. reflow rebuilds the whole paragraph (sb.Reset +
// WriteString of everything so far) at every hyphen it undoes, so one
// paragraph of n such lines costs O(n²): 1 MB took ~6 s, a 10 MB upload
// (RAGD_MAX_BODY_BYTES) would take minutes of a worker. The same bytes
// without the man-page layout take milliseconds.
func TestHR10ManPageHyphenatedParagraphIsLinear(t *testing.T) {
	assertLinear(t, "hyphenated manual page", 10000, func(n int) {
		var sb strings.Builder
		for range n { // 27 bytes a line
			sb.WriteString("       word word word mes-\n")
		}
		mustExtract(t, "html", hr10ManPage(sb.String()))
	})
}

// TestHR10ManPageOneLineCommandIsCode: a one-line example command under the
// sentence announcing it ("To flush the queue:" above "postqueue -f") is
// code, as a multi-line example is; manGroup makes every one-line group a
// paragraph (len(g) == 1), so the command is quoted as prose with its
// blanks collapsed ("awk '{ print  $1 }'" becomes "awk '{ print $1 }'").
func TestHR10ManPageOneLineCommandIsCode(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", hr10ManPage(
		"       To list the queue IDs of deferred mail:\n\n              mailq | awk '{ print  $1 }'\n\n"+
			"       To flush the queue:\n\n              postqueue -f\n"))
	code := blockTexts(doc, KindCode)
	for _, want := range []string{"mailq | awk '{ print  $1 }'", "postqueue -f"} {
		found := false
		for _, c := range code {
			if strings.Contains(c, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("no code block holds %q; code blocks %q, paragraphs %q", want, code, blockTexts(doc, KindParagraph))
		}
	}
}

// TestHR10PreWithHeaderShapedFirstLineKeepsItsText: an ordinary code block
// whose first line happens to begin and end with the same call
// ("max(1) + max(1)") is taken for a manual page by isManPage (the header
// pattern), and manPage then drops that line as the running header and
// turns the code's lines into a heading and paragraphs: text of the
// document is lost. A <pre> that is no manual page must stay one code
// block, whole.
func TestHR10PreWithHeaderShapedFirstLineKeepsItsText(t *testing.T) {
	t.Parallel()
	in := "<html><body><p>Calls are evaluated left to right:</p><pre>\nmax(1) + max(1)\n    x = 2\n    y = 3\n    z = 4\n  w = 5\n</pre></body></html>"
	doc := mustExtract(t, "html", in)
	code := blockTexts(doc, KindCode)
	if len(code) != 1 || !strings.Contains(code[0], "max(1) + max(1)") {
		var got []string
		for _, b := range doc.Blocks {
			got = append(got, b.Kind.String()+": "+doc.Text[b.Start:b.End])
		}
		t.Errorf("blocks %q, want the <pre> as one code block with its first line", got)
	}
}

// TestHR10ManPageNbspLineIsNoBlock: a line holding only a no-break space
// (&nbsp;, as HTML converters write blank lines) at the margin of a manual
// page is blank, like a line of spaces. manPage trims only ' ', so the
// line is a "heading" of its own (manHeading: no words, no period) and the
// Document gets a blank heading block, which the extractor's invariants
// (checkDocument) forbid; the chunker would open a section with no name.
func TestHR10ManPageNbspLineIsNoBlock(t *testing.T) {
	t.Parallel()
	in := "<html><body><pre>\nFROB(1)                 General Commands                 FROB(1)\n\n" +
		"NAME\n       frob - frob things\n\n&nbsp;\n\nDESCRIPTION\n       The frob command frobs every thing it is given.\n</pre></body></html>"
	doc, err := Extract("html", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range doc.Blocks {
		if s := doc.Text[b.Start:b.End]; strings.TrimSpace(s) == "" {
			t.Errorf("block %d (%s) is blank: %q", i, b.Kind, s)
		}
	}
}
