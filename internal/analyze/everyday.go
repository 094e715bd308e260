package analyze

import (
	_ "embed"
	"strings"
)

//go:generate go run gen_everyday.go

//go:embed everyday_words.txt
var everydayText string

// everyday is the set of everyday_words.txt.
var everyday = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(everydayText, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			m[l] = true
		}
	}
	return m
}()

// Everyday reports whether word, or its stem with a regular English ending
// removed ("stored", "limits", "tries", "turning"), is one of the ~1,500 most
// frequent words of general English (everyday_words.txt: the local model's
// vocabulary, whose frequencies come from general English text, not from
// any tenant). A question phrases what it asks in such words ("still",
// "many", "clear", "share", "display"); the documents that answer it need
// not use them.
func Everyday(word string) bool {
	w := strings.ToLower(word)
	if everyday[w] {
		return true
	}
	for _, e := range [...]struct{ suffix, add string }{{"s", ""}, {"es", ""}, {"ies", "y"}, {"ied", "y"}, {"ed", ""}, {"d", ""}, {"ing", ""}, {"ing", "e"}} {
		if stem, ok := strings.CutSuffix(w, e.suffix); ok && len(stem) >= 3 && everyday[stem+e.add] {
			return true
		}
	}
	return false
}
