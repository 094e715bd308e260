package search

import (
	"slices"
	"testing"
)

// TestQuantityUnitIsNoName: a unit of measure after a number ("16 MB") or
// joined to it ("16MB") is a quantity the documents may write in words
// ("16 megabytes"), not a name whose absence says the question is about
// something they do not cover; the same letters as a name stay one.
func TestQuantityUnitIsNoName(t *testing.T) {
	t.Parallel()
	words := func(q string) []string {
		var out []string
		for _, p := range probeWords(q) {
			out = append(out, p.word)
		}
		return out
	}
	for _, q := range []string{
		"How can I reject file uploads bigger than 16 MB?",
		"How can I reject file uploads bigger than 16MB?",
		"Why does a request take 500 ms longer behind the proxy?",
		"Can I limit the cache to 2.5 GB?",
		"Why does php reject uploads over 16M when the limit says 512Mi?",
	} {
		for _, w := range words(q) {
			if unitSymbols[w] || joinedUnits[w] || quantityForm.MatchString(w) {
				t.Errorf("%q probes %q as a name", q, w)
			}
		}
	}
	for q, want := range map[string]string{
		"What does the MB column of the report show?": "MB",
		"How do I set MB_LIMIT for uploads of 16 MB?": "MB_LIMIT",
		"Which GB18030 codec does the library ship?":  "GB18030",
		"Why does 16 MBX fail to load as a plugin?":   "MBX",
	} {
		if !slices.Contains(words(q), want) {
			t.Errorf("%q: probes %q, want %q among them", q, words(q), want)
		}
	}
}
