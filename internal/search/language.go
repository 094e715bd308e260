package search

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ragd-dev/ragd/internal/analyze"
)

// Documentation ships its translations beside the original: Beautiful
// Soup's manual in English, Portuguese, Russian and Chinese in one
// package, the Guide for Debian Maintainers in six languages, each as
// HTML, PDF and text. A translation keeps the original's identifiers,
// commands and error messages, so it matches a question in any language
// through them: two trials found a fifth of an English question's first
// five results in other languages, and answers quoting the Traditional
// Chinese or German edition to an English question. A chunk clearly
// written in another language than the question keeps languageWeight of
// its fused score: it still ranks, below what matches about as well in
// the asker's language, and where the documents hold only other
// languages (an English manual asked in Japanese) every chunk keeps the
// same share and the order is the fused one.

// languageWeight is the share of its fused score a chunk in another
// language than the question's keeps.
const languageWeight = 0.5

// discountForeign lowers the score of each result whose text is in another
// language than question (foreignTo) and re-sorts, best first, the order of
// equal scores kept.
func discountForeign(question string, results []Result) []Result {
	qs := analyze.Script(question)
	if qs == "" {
		return results
	}
	ql := ""
	if qs == "latin" {
		ql, _ = analyze.Language(question, 2)
	}
	changed := false
	for i := range results {
		if foreignTo(qs, ql, results[i].Content) {
			results[i].Score *= languageWeight
			changed = true
		}
	}
	if changed {
		slices.SortStableFunc(results, func(a, b Result) int { return cmp.Compare(b.Score, a.Score) })
	}
	return results
}

// foreignTo reports whether text is clearly in another language than a
// question written in script qs and, in Latin letters, language ql ("" when
// its function words do not tell): most of its letters in another script
// (judged on its prose: proseOf), or, in Latin letters, at least eight
// words of which another language's function words are at least three,
// two more and twice as many as ql's (a terse line's "per" and "non-" are
// not Italian).
func foreignTo(qs, ql, text string) bool {
	text = proseOf(text)
	ps := analyze.Script(text)
	if ps == "" {
		return false
	}
	if ps != qs {
		return true
	}
	if ps != "latin" || ql == "" || analyze.LatinWordCount(text) < 8 {
		return false
	}
	pl, counts := analyze.Language(text, 3)
	return pl != "" && pl != ql && counts[pl] >= counts[ql]+2 && counts[pl] >= 2*counts[ql]
}

// proseOf is the lines of text that end a sentence (a full stop, a
// question or exclamation mark, a colon; their CJK forms), or text when
// none does: a chunk's code and printed output are the same in every
// language, and a Traditional Chinese chunk whose gpg session outweighed
// its two sentences in letters counted as Latin text.
func proseOf(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if strings.HasSuffix(t, ".") || strings.HasSuffix(t, "?") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, ":") ||
			strings.HasSuffix(t, "。") || strings.HasSuffix(t, "？") || strings.HasSuffix(t, "！") || strings.HasSuffix(t, "：") {
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	if b.Len() == 0 {
		return text
	}
	return b.String()
}
