package embed

import (
	"fmt"
	"slices"
	"unicode"
)

// ScriptLimited is implemented by an Embedder whose model represents text in
// some writing systems only. Search uses it to leave out the vector leg for
// a question the model cannot represent (its vector would be noise that
// fusion then mixes into the results).
type ScriptLimited interface {
	// Scripts returns the names of the Unicode scripts (keys of
	// unicode.Scripts: "Latin", "Han", "Hiragana", …) whose text the model
	// represents. Empty means every script.
	Scripts() []string
}

// Represents reports whether e's model represents text written in script
// (a key of unicode.Scripts). An Embedder that does not implement
// ScriptLimited, or whose Scripts is empty, represents every script.
func Represents(e Embedder, script string) bool {
	sl, ok := e.(ScriptLimited)
	if !ok {
		return true
	}
	s := sl.Scripts()
	return len(s) == 0 || slices.Contains(s, script)
}

// ValidateScripts returns an error naming the first of names that is not a
// Unicode script (a key of unicode.Scripts; names are case-sensitive).
func ValidateScripts(names []string) error {
	for _, n := range names {
		if _, ok := unicode.Scripts[n]; !ok || n == "Common" || n == "Inherited" {
			return fmt.Errorf("embed: %q is not a Unicode script name (e.g. Latin, Han, Hiragana, Katakana, Hangul, Cyrillic)", n)
		}
	}
	return nil
}
