package answer

import (
	"strings"
	"testing"
)

// TestExtractiveKeepsTheSentenceThatTakesItBack: a sentence taking back
// what the passage recommends ("This, however, is not the preferred way to
// concatenate strings!") continues the passage, with the one after it
// pointing to what to use instead: Jinja's "+" had been the answer to
// which operator joins strings, without "~".
func TestExtractiveKeepsTheSentenceThatTakesItBack(t *testing.T) {
	t.Parallel()
	content := "Math\n\nJinja allows you to calculate with values. This is rarely useful in templates but exists for completeness' sake. The following operators are supported:\n\n" +
		"+\nAdds two objects together. Usually the objects are numbers, but if both are strings or lists, you can concatenate them this way. " +
		"This, however, is not the preferred way to concatenate strings! For string concatenation, have a look-see at the ~ operator. {{ 1 + 1 }} is 2.\n\n" +
		"-\nSubtract the second number from the first one. {{ 3 - 2 }} is 1.\n"
	r := Extractive("What operator glues strings together in a Jinja expression?", []Source{{N: 1, HeadingPath: "Template Designer Documentation > Expressions > Math", Content: content}}, 0)
	if !strings.Contains(r.Answer, "have a look-see at the ~ operator") {
		t.Errorf("Answer =\n%s\nwant the sentences taking + back and pointing to ~", r.Answer)
	}
}
