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
// language than question (judge) and re-sorts, best first, the order of
// equal scores kept; only when some result is clearly in the question's
// language: over documents in other languages only, code and other
// text in no language would otherwise rise above the prose that answers
// (a German question over an English manual).
func discountForeign(question string, results []Result) []Result {
	qs := analyze.Script(question)
	if qs == "" {
		return results
	}
	ql := ""
	if qs == "latin" {
		ql, _ = analyze.Language(question, 2)
	}
	langs := make([]int, len(results))
	eachOf(len(results), func(i int) { langs[i] = judge(qs, ql, results[i].Content) })
	if !slices.Contains(langs, sameLanguage) {
		return results
	}
	changed := false
	for i := range results {
		if langs[i] == otherLanguage {
			results[i].Score *= languageWeight
			changed = true
		}
	}
	if changed {
		slices.SortStableFunc(results, func(a, b Result) int { return cmp.Compare(b.Score, a.Score) })
	}
	return results
}

// What judge tells of a text against a question's language.
const (
	noLanguage    = iota // code, a table of names, too short: no telling
	sameLanguage         // the question's
	otherLanguage        // clearly another
)

// judge tells whether text is in the language of a question written in
// script qs and, in Latin letters, language ql ("" when its function words
// do not tell). By script (of its prose, proseOf: code and printed output
// are the same in every language; identifiers do not count): another
// script is another language, the same one other than Latin letters the
// same. In Latin letters, by function words, on the lines that end a
// sentence (the whole text when they hold fewer than eight words, if it
// has any; none, and it is code or a table: no telling), at least eight
// words: at least three of another
// language's, two more and twice as many as ql's, is another language
// (a terse line's "per" and "non-" are not Italian); ql's most, or any
// Latin prose when ql is unknown, the same.
func judge(qs, ql, text string) int {
	prose, found := proseOf(text)
	ps := analyze.Script(prose)
	switch {
	case ps == "":
		return noLanguage
	case ps != qs:
		return otherLanguage
	case ps != "latin":
		return sameLanguage
	}
	pl, counts, words := analyze.LanguageWords(prose, 3)
	switch {
	case words < 8:
		// Too few sentences' ends (hard-wrapped text, a PDF's, ends
		// a sentence on one line of each paragraph): the whole text,
		// identifiers not counted.
		if !found {
			return noLanguage
		}
		if pl, counts, words = analyze.LanguageWords(text, 3); words < 8 {
			return noLanguage
		}
	case ql == "":
		return sameLanguage
	}
	switch {
	case pl == ql:
		return sameLanguage
	case pl != "" && counts[pl] >= counts[ql]+2 && counts[pl] >= 2*counts[ql]:
		return otherLanguage
	}
	return noLanguage
}

// proseOf is the lines of text that end a sentence (a full stop, a
// question or exclamation mark, a colon; their CJK forms), and whether
// there are any; text itself when there are none. A chunk's code and
// printed output are the same in every language, and a Traditional
// Chinese chunk whose gpg session outweighed its two sentences in letters
// counted as Latin text.
func proseOf(text string) (string, bool) {
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
		return text, false
	}
	return b.String(), true
}
