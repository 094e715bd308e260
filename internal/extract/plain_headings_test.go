package extract

import (
	"fmt"
	"strings"
	"testing"
)

// plainHeads lists a plain-text document's headings as "level text".
func plainHeads(t *testing.T, src string) (*Document, []string) {
	t.Helper()
	doc, err := Extract("text/plain", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var hs []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			hs = append(hs, fmt.Sprintf("%d %s", b.Level, doc.Text[b.Start:b.End]))
		}
	}
	return doc, hs
}

// TestPlainTextFAQHeadings: plain text had no headings at all, so every
// chunk of a FAQ was headed by its file name and a question was cut from
// its answer (49 of the Vim FAQ's 179 chunks ended with a question whose
// answer opened the next one). A section title under a separator line
// and numbered questions, wrapped ones included, are headings; the table
// of contents listing the same questions is not.
func TestPlainTextFAQHeadings(t *testing.T) {
	t.Parallel()
	src := `This FAQ answers questions about the editor.

INDEX

SECTION 1 - GENERAL INFORMATION
    1.1. What is it?
    1.2. I have a problem with my setup. How do I find
         out whether it is the editor?

=============================================================================

SECTION 1 - GENERAL INFORMATION


1.1. What is it?

It is a text editor.

1.2. I have a problem with my setup. How do I find
     out whether it is the editor?

Start it without your settings:

    $ vim -u NONE

=============================================================================

SECTION 2 - RESOURCES


2.1. Where can I learn more?

Read the manual.
`
	doc, hs := plainHeads(t, src)
	want := []string{
		"1 INDEX",
		"1 SECTION 1 - GENERAL INFORMATION",
		"2 1.1. What is it?",
		"2 1.2. I have a problem with my setup. How do I find out whether it is the editor?",
		"1 SECTION 2 - RESOURCES",
		"2 2.1. Where can I learn more?",
	}
	if strings.Join(hs, "\n") != strings.Join(want, "\n") {
		t.Errorf("headings\n%s\nwant\n%s", strings.Join(hs, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(doc.Text, "=====") {
		t.Errorf("separator lines kept in the text:\n%s", doc.Text)
	}
}

// TestPlainTextHelpFileHeadings: Vim help files (and many plain-text
// manuals) put a separator line above each section title: "*28.7*" then
// the title, or "1. Fold methods" then its anchors. The anchors are kept
// as text after the heading, not in it; capitals titles are subsections.
func TestPlainTextHelpFileHeadings(t *testing.T) {
	t.Parallel()
	src := "*usr_28.txt*\tFor Vim version 9.0.  Last change: 2008 Jun 14\n\n" +
		"|28.1|\tWhat is folding?\n|28.2|\tManual folding\n\n" +
		"==============================================================================\n" +
		"*28.1*\tWhat is folding?\n\nFolding is used to show a range of lines as one.\n\n" +
		"==============================================================================\n" +
		"*28.2*\tManual folding\n\nTry it out.\n\n" +
		"==============================================================================\n" +
		"*28.3*\tFold options\t\t\t\t\t*fold-options*\n\t\t\t\t\t\t*E387* *E388*\n\n" +
		"COLORS\t\t\t\t\t\t\t*fold-colors*\n\nThe colors of a closed fold are set.\n\n" +
		"==============================================================================\n" +
		" vim:tw=78:ts=8:noet:ft=help:norl:\n"
	doc, hs := plainHeads(t, src)
	want := []string{"1 28.1 What is folding?", "1 28.2 Manual folding", "1 28.3 Fold options", "2 COLORS"}
	if strings.Join(hs, "\n") != strings.Join(want, "\n") {
		t.Errorf("headings\n%s\nwant\n%s", strings.Join(hs, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(doc.Text, "28.3 Fold options\n\n*fold-options* *E387* *E388*\n\nCOLORS\n\n*fold-colors*") {
		t.Errorf("anchors not kept after their headings:\n%s", doc.Text)
	}
	// A reference file's one-part numbers under separators.
	sep := strings.Repeat("=", 78) + "\n"
	_, hs = plainHeads(t, sep+"1. Fold methods\t\t*fold-methods*\n\nThe method is set.\n\n"+sep+"2. Fold commands\n\nAll start with z.\n")
	if want := "1 1. Fold methods|1 2. Fold commands"; strings.Join(hs, "|") != want {
		t.Errorf("headings %q, want %q", hs, want)
	}
}

// TestPlainTextUnderlinedHeadings: a title underlined with "=" or "-" is
// a heading, "=" above "-" as the first kinds met; the separator under a
// title does not make the next paragraph a title too.
func TestPlainTextUnderlinedHeadings(t *testing.T) {
	t.Parallel()
	src := "Project\n=======\n\nIt does things.\n\nInstallation\n------------\n\nRun the installer.\n\nBugs\n====\n\nReport them at\n\n https://example.com/bugs\n"
	_, hs := plainHeads(t, src)
	want := []string{"1 Project", "2 Installation", "1 Bugs"}
	if strings.Join(hs, "\n") != strings.Join(want, "\n") {
		t.Errorf("headings %q, want %q", hs, want)
	}
}

// TestPlainTextNoFalseHeadings: numbered steps (one paragraph, or one step
// per paragraph), a sentence starting with a number, a lone capitals word
// at the end, and numbered lines without siblings are not headings.
func TestPlainTextNoFalseHeadings(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"To install:\n\n1. Download the archive.\n2. Unpack it.\n3. Run make.\n\nThat is all.\n",
		"To install:\n\n1. Download the archive\n\n2. Unpack it\n\n3. Run make\n\nThat is all.\n",
		"Steps\n\n1. Open the file\n\n   It opens in a new window.\n\n2. Type the text\n\n   Then save it.\n",
		"The survey found that\n\n2.5 million users were affected\n\nin the first week alone.\n",
		"Version 3.2 Changes\n\nMany things changed.\n",
		"Some text here.\n\nEND\n",
		"A table:\n\nName    Value\n-----   -----\nfoo     1\n\nMore text.\n",
	} {
		if _, hs := plainHeads(t, src); len(hs) > 0 {
			t.Errorf("%q: headings %q, want none", src, hs)
		}
	}
}
