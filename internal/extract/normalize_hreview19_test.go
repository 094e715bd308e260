package extract

import (
	"strings"
	"testing"
)

// TestCodeKeepsMinusSignsAndHyphens (h-review19, commit 3d4a597):
// analyze.Normalize now maps U+2010, U+2011 and U+2212 to "-" in every
// block a document is built from, code included (builder.add → clean).
// Normalize's own comment says widths are not folded because "a
// document's text is quoted as written (code that converts fullwidth
// digits must keep them)"; code that handles minus signs is the same case,
// and it is ordinary in number-parsing, typesetting and i18n docs
// (Python's `text.replace("−", "-")`, a regex character class or a
// locale table written with the characters). After extraction the
// listing reads `text.replace("-", "-")`: the quoted code is a no-op and
// the answer teaches a wrong program (the extractive mode quotes code
// verbatim).
//
// Expected: a code block keeps U+2212/U+2010/U+2011 as written (the
// keyword index can fold them, as it folds widths via Keywords), or at
// least code whose characters are quoted in a string literal; the commit's
// case ("dot −Tpng" in prose or a synopsis) can still be folded for search.
func TestCodeKeepsMinusSignsAndHyphens(t *testing.T) {
	t.Parallel()
	src := "# Parsing typeset numbers\n\nTypeset text writes a negative number with the minus sign. Replace it before parsing:\n\n" +
		"```python\nvalue = float(text.replace(\"\u2212\", \"-\"))\n```\n"
	doc, err := Extract("text/markdown", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var code string
	for _, b := range doc.Blocks {
		if b.Kind == KindCode {
			code = doc.Text[b.Start:b.End]
		}
	}
	if !strings.Contains(code, "text.replace(\"\u2212\", \"-\")") {
		t.Errorf("code block = %q, want the minus sign U+2212 kept as written: `text.replace(\"\u2212\", \"-\")`", code)
	}
}
