package search

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// A change log (a Sphinx build's changes.html, a manual's release notes:
// a chunk titled as one, or under a heading that can only name one, that
// names a release: changelogChunk)
// names every feature of the software in one-line entries, so it matches
// almost any question's words and crowded the pages that explain them out
// of the first sources: two fresh-user trials found Flask's and Jinja's
// change logs among the sources of 12 and 24 of 42 questions, quoted as
// the answer to "Do I need to install anything extra to use signals?" and
// ranked above the section that answered "the loop variable is empty
// inside the block". Unless the question asks about versions or changes
// (changeQuestion), a change log's chunks count changelogWeight of their
// fused score.

// changelogWeight is the share of its fused score a change log's chunk
// keeps for a question that does not ask about changes: an entry that
// shares the question's words still ranks, below a page that explains them
// as well as it matches.
const changelogWeight = 0.5

// changelogTitle matches a change log's title once its site suffix ("—
// Flask Documentation (2.2.x)") and its section number ("E.1.") are left
// out: "Changes", "Changelog", "Release Notes", "History", "Release 15.4",
// and the product's name before the unambiguous ones ("Pygments
// changelog", whose 52 chunks were not discounted).
// A "What's new in 2.0" page explains its features in prose and is not
// one.
var changelogTitle = regexp.MustCompile(`(?i)^(changes|change ?log|changelog|change history|release notes|release history|version history|history|news|release \d+(\.\d+)*|[\p{L}][\p{L}\p{N}.+-]*\s+(change ?log|changelog|release notes|release history|version history))$`)

// changeQuestion matches a question about versions or changes: it names a
// release number, a version, a change log, a deprecation or an upgrade, or
// asks when something came, went or changed ("When was …", "added in",
// "What changed …"). A word of change alone is the asker's data, not a
// release's: "a copy of an instance with one field changed", "git status
// keeps showing changes", "child rows removed from the collection" (the
// attrs trial's question was answered from the change log, undiscounted),
// "the files changed in a commit", "What changes do I need to make …":
// "added in" counts before a release's number only ("added in 2", "removed
// in v3"; a version or a release is a cue of its own). A dotted number
// counts after a word and a blank, a "v", a word it is joined to
// ("python3.12", "Python-3.12"), a parenthesis or at the start ("Python
// 2.7", "in 3.12", "v2.0", "(20.1)", "3.12 removed …"): one inside a
// pasted requirement, an address or an amount
// ("'foo>=1.0' distribution was not found", "127.0.0.1", "'30.00' is not a
// properly formatted decimal") names no release, and the setuptools
// trial's pasted DistributionNotFound was answered from its change log.
var changeQuestion = regexp.MustCompile(`(?i)\b(versions?|releases?|released|change ?logs?|new in|deprecated|deprecations?|upgrad\w*|migrat\w*|breaking|backwards?|compatib\w*|history|when (was|did|were|is|will)|since when|(added|introduced|removed|changed|dropped|renamed) in v?\d+|what(?:'s|’s| has| have)? changed)\b|(?:\bv|[^\W\d_][\w+.-]*\s+|\b[A-Za-z]+-?|\(\s*|^\s*)\d+\.\d+`)

// changelogChunk reports whether r is a chunk of a change log: its
// document's title, or a heading above it that can only name one
// ("Release History" on a page titled "Community Updates"; a "History" or
// "News" section is as often a feature's), names one, and the chunk names
// a release (its title without the site's suffix, its heading path or a
// line of its own: a site's "Shellkit v2.3 documentation" names no release
// of the page).
func changelogChunk(r Result) bool {
	title := titleStem(r.Title)
	titled := changelogTitle.MatchString(title)
	if !titled {
		for _, h := range strings.Split(r.HeadingPath, " > ") {
			if h := titleStem(h); changelogTitle.MatchString(h) && !ambiguousLogTitle[strings.ToLower(h)] {
				titled = true
				break
			}
		}
	}
	if titled && (versionMark.MatchString(title) || versionMark.MatchString(r.HeadingPath) ||
		releaseDated.MatchString(r.HeadingPath) || versionLine.MatchString(r.Content)) {
		return true
	}
	// A section headed by a release's number and date ("1.4.4
	// (2020-06-01)") is a release's notes wherever it stands: a page
	// that holds its change history beside other sections (waitress'
	// index.html: "Change History" a sibling of the releases' headings,
	// not above them) crowded the first sources of a held-out trial with
	// its entries. The heading is one of the chunk's heading path (a
	// release's "Bugfixes" under "2.0.0 (2021-03-07)" are its notes too)
	// or the line the chunk opens with.
	first, _, _ := strings.Cut(strings.TrimSpace(r.Content), "\n")
	return datedRelease.MatchString(strings.TrimSpace(first)) ||
		slices.ContainsFunc(strings.Split(r.HeadingPath, " > "), func(h string) bool { return datedRelease.MatchString(strings.TrimSpace(h)) })
}

// datedRelease matches a heading that is a release's number and its date,
// and nothing else: "1.4.4 (2020-06-01)", "v2.0.0 - 2021-03-07", "Version
// 3.1 (2019-05-02)", "[2.1.0] - 2022-01-10".
var datedRelease = regexp.MustCompile(`(?i)^(version |release |v)?\[?v?\d+(\.\d+)+\]?\s*(\(\s*\d{4}-\d{2}-\d{2}\s*\)|[-–/]\s*\d{4}-\d{2}-\d{2})$`)

// ambiguousLogTitle are change-log titles that head a feature's section as
// often (a shell's command history, a CMS's news items): they name a
// change log as a page's title, not as a heading inside one.
var ambiguousLogTitle = map[string]bool{"history": true, "news": true}

// titleStem is a title without its site suffix ("— Flask Documentation
// (2.2.x)") and its section number ("E.1.").
func titleStem(title string) string {
	t := strings.TrimSpace(title)
	for _, sep := range []string{" — ", " – ", " | ", " - "} {
		if i := strings.Index(t, sep); i > 0 {
			t = t[:i]
		}
	}
	return strings.TrimSpace(sectionNumber.ReplaceAllString(t, ""))
}

// sectionNumber is a title's leading section number ("E.1. ", "12.3 ",
// "A. "; a letter alone, "A History", is a word).
var sectionNumber = regexp.MustCompile(`^(([A-Z]|\d+)(\.\d+)*\.|\d+(\.\d+)*)\s+`)

// A change log's chunk names a release: its title ("Release 15.4"), a
// heading ("Version 2.2.0", or a release as its tarball is named,
// "tig-2.5.5", tig's release notes) or a line of its own ("Version 2.2.2",
// "Released 2022-08-08", "2.28.1 (2022-06-29)", "[1.2.0] - 2022-01-03",
// "pytest 7.4.0 (2023-06-23)", "4.18.2 / 2022-10-08"). A page titled "History" that names none (a
// company's history) is no change log.
var (
	versionMark = regexp.MustCompile(`(?i)\b(version|release|v)\s*\d+(\.\d+)+|(^|> )[\p{L}][\p{L}\p{N}+]*-v?\d+\.\d+(\.\d+)*\s*($| >)`)
	versionLine = regexp.MustCompile(`(?im)^[ \t]*((version|release|changes in( version)?|v)[ \t]*\d+(\.\d+)+|released\b|(\S+[ \t]+)?\[?v?\d+\.\d+\.\d+\]?[ \t]*[-–/(][ \t]*\d{4}-\d{2}-\d{2})`)
	// releaseDated is a release of three parts with its date ("2.28.1
	// (2022-06-29)", "4.18.2 / 2022-10-08"); a number of two parts with a
	// date is as often a measurement ("1.0842 (2024-01-02)").
	releaseDated = regexp.MustCompile(`\bv?\d+\.\d+\.\d+\]?\s*[-–/(]\s*\d{4}-\d{2}-\d{2}`)
)

// Arrange is the last step of fusion, after Combine: change-log chunks
// discounted for a question that does not ask about changes
// (discountChangelogs), chunks in another language than the question's
// (discountForeign) and copies of chunks ranked above them
// (discountCopies), then at most perDoc chunks of a document before
// every other document's (Diversify). The search path and the
// evaluation's in-memory fusion both call it, so what is tuned is what is
// served; it reads a result's Title, HeadingPath and Content.
func Arrange(question string, results []Result, perDoc int) []Result {
	return Diversify(discountCopies(discountForeign(question, discountChangelogs(question, results))), perDoc)
}

// discountCopies lowers the score of a chunk whose text chunks ranked
// above it, in another document, hold too (copyWeight for each such
// document before it), and re-sorts (best first, the order of equal
// scores kept). Pages that include a shared section (an AsciiDoc include:
// Git's "Combined diff format" in six pages, "GIT URLS" in five) filled a
// question's first five results with one text, and the page that answers
// it fell out of the first twenty; a manual shipped as HTML and as PDF
// (Autoconf's, Bash's) answered from both copies of one section, citing
// it twice. A chunk is a copy when at least copyShare of its word
// shingles (copyShingle words) are among those of the other document's
// chunks above it: the copies' chunks start and end at other places, and
// a PDF's text differs by its page furniture and line breaks. The first
// copy keeps its place, and a copy stays among the results, below what
// else matches about as well.
func discountCopies(results []Result) []Result {
	// first holds, by shingle, the first document (its index in docs, plus
	// one) whose chunks ranked so far hold it; more, the others, each once.
	first := make(map[uint64]int32, 128*len(results))
	more := map[uint64][]int32{}
	var docs []uuid.UUID
	index := map[uuid.UUID]int32{}
	var counts []int
	changed := false
	all := make([][]uint64, len(results))
	eachOf(len(results), func(i int) {
		if len(results[i].Content) >= minCopyChars {
			all[i] = shingles(results[i].Content)
		}
	})
	for i := range results {
		sh := all[i]
		if len(sh) == 0 {
			continue
		}
		doc, ok := index[results[i].DocumentID]
		if !ok {
			doc = int32(len(docs))
			docs = append(docs, results[i].DocumentID)
			index[results[i].DocumentID] = doc
			counts = append(counts, 0)
		}
		clear(counts)
		for _, h := range sh {
			if d := first[h]; d > 0 {
				counts[d-1]++
				for _, d := range more[h] {
					counts[d]++
				}
			}
		}
		copies := 0
		for d, n := range counts {
			if int32(d) != doc && float64(n) >= copyShare*float64(len(sh)) {
				copies++
			}
		}
		if copies > 0 {
			results[i].Score *= math.Pow(copyWeight, float64(copies))
			changed = true
		}
		for _, h := range sh {
			switch d := first[h]; {
			case d == 0:
				first[h] = doc + 1
			case d-1 != doc && !slices.Contains(more[h], doc):
				more[h] = append(more[h], doc)
			}
		}
	}
	if changed {
		slices.SortStableFunc(results, func(a, b Result) int { return cmp.Compare(b.Score, a.Score) })
	}
	return results
}

// shingles returns the hashes of text's runs of copyShingle consecutive
// words (lower-cased letters and digits; punctuation and white space
// ignored), each once; nil for a text shorter than a shingle.
func shingles(text string) []uint64 {
	const prime = 1099511628211
	var words []uint64
	var w uint64
	in := false
	for _, r := range text {
		var c rune // r lower-cased when a letter or digit, else -1
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
			c = r
		case 'A' <= r && r <= 'Z':
			c = r + 'a' - 'A'
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			c = unicode.ToLower(r)
		default:
			c = -1
		}
		if c >= 0 {
			if !in {
				w, in = 14695981039346656037, true
			}
			w = (w ^ uint64(c)) * prime
			continue
		}
		if in {
			words, in = append(words, w), false
		}
	}
	if in {
		words = append(words, w)
	}
	if len(words) < copyShingle {
		return nil
	}
	out := make([]uint64, 0, len(words)-copyShingle+1)
	for i := 0; i+copyShingle <= len(words); i++ {
		var h uint64 = 14695981039346656037
		for _, x := range words[i : i+copyShingle] {
			h = (h ^ x) * prime
		}
		out = append(out, h)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// minCopyChars is the shortest text discountCopies compares: shorter
// chunks (a line, a heading with a sentence) say little.
const minCopyChars = 200

// copyWeight is the factor on a copy's score per copy ranked before it.
const copyWeight = 0.5

// copyShingle is the words of a shingle, and copyShare the share of a
// chunk's shingles other chunks must hold for it to be their copy.
const (
	copyShingle = 5
	copyShare   = 0.6
)

// ChangelogChunk reports whether a result is a change log's chunk (by its
// Title, HeadingPath and Content), whatever the question.
func ChangelogChunk(r Result) bool { return changelogChunk(r) }

// AsksAboutChanges reports whether a question asks about versions or
// changes (changeQuestion), for which a change log's chunks count fully.
func AsksAboutChanges(question string) bool { return changeQuestion.MatchString(question) }

// discountChangelogs lowers the scores of change-log chunks for a question
// that does not ask about changes and re-sorts results (best first, the
// order of equal scores kept).
func discountChangelogs(question string, results []Result) []Result {
	if changeQuestion.MatchString(question) {
		return results
	}
	changed := false
	for i := range results {
		if changelogChunk(results[i]) {
			results[i].Score *= changelogWeight
			changed = true
		}
	}
	if changed {
		slices.SortStableFunc(results, func(a, b Result) int { return cmp.Compare(b.Score, a.Score) })
	}
	return results
}
