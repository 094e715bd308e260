package answer

import (
	"strings"
	"testing"
)

// TestConditionNamingThisLeansBack: a demonstrative inside an opening
// condition ("If the files you compare using this option …") refers to
// what the sentence before named, which the answer then quotes (diff's
// --text, left out of "how do I make diff compare binary files line by
// line?"); a condition without one does not.
func TestConditionNamingThisLeansBack(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"If the files you compare using this option do not in fact contain text, they will probably contain few newline characters.": true,
		"When these settings are combined, the output is sorted.":                                                                    true,
		"If the files differ in white space only, diff reports nothing.":                                                             false,
		"Unless otherwise configured, this daemon listens on port 80.":                                                               false,
	} {
		if got := opensWithBackReference(s); got != want {
			t.Errorf("opensWithBackReference(%q) = %v, want %v", s, got, want)
		}
	}
	content := "Binary files\n\nTo force diff to consider all files to be text files, and compare them line by line, even if they do not appear to be text, use the --text (-a) option. " +
		"If the files you compare using this option do not in fact contain text, they will probably contain few newline characters, and the diff output will consist of hunks showing differences between long lines of whatever characters the files contain."
	r := Extractive("diff only says the binary files differ; how do I compare them anyway?", []Source{{N: 1, HeadingPath: "Binary files", Content: content}}, 1)
	if !strings.Contains(r.Answer, "--text (-a)") {
		t.Errorf("answer %q, want the sentence naming the option", r.Answer)
	}
}
