package extract

import (
	"strings"
	"testing"
)

// TestCodeKeepsFullwidthCharacters_hreview12: code is "kept verbatim"
// (KindCode), but analyze.Normalize's new width folding rewrites it: a
// Japanese program that converts fullwidth digits to ASCII,
// strings.NewReplacer("０", "0", "１", "1"), is stored and quoted as
// strings.NewReplacer("0", "0", "1", "1"), which is not what the document
// says and does nothing. Fullwidth letters in a string literal or a
// regular expression character class ([Ａ-Ｚ]) are changed the same way.
func TestCodeKeepsFullwidthCharacters_hreview12(t *testing.T) {
	t.Parallel()
	src := "# 全角数字を半角に\n\n```go\nr := strings.NewReplacer(\"０\", \"0\", \"１\", \"1\")\nre := regexp.MustCompile(`[Ａ-Ｚ]+`)\n```\n"
	doc, err := Extract("text/markdown", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`strings.NewReplacer("０", "0", "１", "1")`, "`[Ａ-Ｚ]+`"} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("extracted text lacks %q:\n%s", want, doc.Text)
		}
	}
}
