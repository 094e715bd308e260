package eval

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// A set's lines may carry fields of their author's own (an id, a note, the
// kind of an unanswerable question): ragd ignores them and says which it
// ignored (Ignored). A field whose name is a known one misspelt
// ("relevent", "catgory") is a problem instead: read as an annotation, the
// misspelt field's labels would be lost without a word.

// Ignored counts the fields a parse left out, by name.
type Ignored map[string]int

// String lists them as `kind (12 lines), note (1 line)`, by name.
func (ig Ignored) String() string {
	names := make([]string, 0, len(ig))
	for n := range ig {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		unit := "lines"
		if ig[n] == 1 {
			unit = "line"
		}
		parts[i] = fmt.Sprintf("%s (%d %s)", n, ig[n], unit)
	}
	return strings.Join(parts, ", ")
}

// otherFields returns the names of raw's fields that are none of known
// (compared as encoding/json does, case-insensitively), and a message for
// the first of them that looks like a misspelt known field. raw must be one
// JSON object; otherwise nothing is reported here (decoding reports it).
func otherFields(raw []byte, known []string) (others []string, misspelt string) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, ""
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	var absent []string
	for _, k := range known {
		if !isKnown(k, names) {
			absent = append(absent, k)
		}
	}
	for _, name := range names {
		if isKnown(name, known) {
			continue
		}
		// Only a known field the line lacks can be misspelt: "answer"
		// beside "answer_terms" is an annotation of its own.
		if k, ok := misspelling(name, absent); ok && misspelt == "" {
			misspelt = fmt.Sprintf("unknown field %q: did you mean %q?", name, k)
			continue
		}
		others = append(others, name)
	}
	sort.Strings(others)
	return others, misspelt
}

func isKnown(name string, known []string) bool {
	for _, k := range known {
		if strings.EqualFold(name, k) {
			return true
		}
	}
	return false
}

// misspelling reports the known field name is within two edits of (one for
// names under five letters; a length apart by one at most, so that
// "question_id" is a field of its own), or is a part of ("terms" for "answer_terms"),
// ignoring case, underscores and hyphens.
func misspelling(name string, known []string) (string, bool) {
	norm := func(s string) string {
		return strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(s))
	}
	n := norm(name)
	for _, k := range known {
		limit := 2
		if len(k) < 5 {
			limit = 1
		}
		nk := norm(k)
		if n == nk || editDistance(n, nk) <= limit && abs(len(n)-len(nk)) <= 1 || len(n) >= 4 && (strings.HasPrefix(nk, n) || strings.HasSuffix(nk, n)) ||
			labelled(name, k) {
			return k, true
		}
	}
	return "", false
}

// labelled reports a name that is a known field's name with a qualifier
// after it ("relevant_docs", "relevant-pages" for relevant): the same
// labels under another tool's name.
func labelled(name, known string) bool {
	n := strings.ToLower(name)
	k := strings.ToLower(known)
	return len(n) > len(k)+1 && strings.HasPrefix(n, k) && strings.ContainsRune("_- .", rune(n[len(k)]))
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
