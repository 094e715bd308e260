package eval

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragd-dev/ragd/internal/analyze"
)

// Errors about sets.
var (
	// ErrInvalidSet: a set failed validation; the error is a *ValidationError
	// listing every problem (errors.As).
	ErrInvalidSet = errors.New("eval: invalid evaluation set")
	// ErrInvalidName: a set name outside ^[a-z0-9][a-z0-9_.-]{0,99}$.
	ErrInvalidName = errors.New("eval: invalid set name")
	// ErrSetNotFound: the tenant has no set of that name (or version).
	ErrSetNotFound = errors.New("eval: evaluation set not found")
)

// MaxQuestionChars bounds a question (the database and the search API's
// default MaxQueryChars agree on 4000).
const MaxQuestionChars = 4000

// MaxQuestions bounds a set.
const MaxQuestions = 100000

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,99}$`)

// ValidName reports whether name can name a set.
func ValidName(name string) bool { return nameRE.MatchString(name) }

// Question is one line of an evaluation set: {"question": "...", "relevant":
// ["source_uri", ...]}, optionally with "category". Labels are documents, not chunks, so they survive
// re-chunking; an empty Relevant marks a question the corpus cannot answer.
type Question struct {
	Question string   `json:"question"`
	Relevant []string `json:"relevant"`
	// Category is an optional label (e.g. paraphrase, identifier,
	// unanswerable, howto); it does not affect any metric, but reports break
	// the production metrics down by it.
	Category string `json:"category,omitempty"`
}

// Answerable reports whether the question has relevant documents.
func (q Question) Answerable() bool { return len(q.Relevant) > 0 }

// Problem is one validation finding; Line is the 1-based line of the JSONL
// file (or the 1-based position of the question when it came from elsewhere).
type Problem struct {
	Line int `json:"line"`
	// Code classifies the problem: "malformed", "empty_set", "too_many",
	// "empty_question", "invalid_utf8", "too_long", "duplicate_question",
	// "empty_source_uri", "duplicate_source_uri", "unknown_source_uri" or
	// "unlabelled" (a question exported to label, not yet labelled).
	Code    string `json:"code"`
	Message string `json:"message"`
}

// UnlabelledPrefix begins the category of an exported question that a
// person has yet to label (`ragd eval candidates --export`): its relevant
// sources are only what was retrieved. A set holding one is refused.
const UnlabelledPrefix = "unlabelled-"

// ValidationError lists every problem found in a set. It matches ErrInvalidSet
// under errors.Is.
type ValidationError struct {
	Problems []Problem `json:"problems"`
}

// Error lists the problems (the first 20) with their lines.
func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d problem(s)", len(e.Problems))
	for i, p := range e.Problems {
		if i == 20 {
			fmt.Fprintf(&b, "; … and %d more", len(e.Problems)-20)
			break
		}
		fmt.Fprintf(&b, "; line %d: %s", p.Line, p.Message)
	}
	return ErrInvalidSet.Error() + ": " + b.String()
}

// Unwrap makes errors.Is(err, ErrInvalidSet) true.
func (e *ValidationError) Unwrap() error { return ErrInvalidSet }

// ParseJSONL reads a set, one JSON object a line ({"question", "relevant",
// optional "category"}); blank lines are skipped. A field of the author's
// own is ignored (ParseJSONLIgnored says which); a misspelt known field
// ("relevent"), malformed lines and the Validate problems are all reported
// together, each with its line. Errors: *ValidationError (ErrInvalidSet), or
// the reader's error.
func ParseJSONL(r io.Reader) ([]Question, error) {
	qs, _, err := ParseJSONLIgnored(r)
	return qs, err
}

// setFields are the fields of a set's line.
var setFields = []string{"question", "relevant", "category"}

// ParseJSONLIgnored is ParseJSONL, also returning the fields it ignored.
func ParseJSONLIgnored(r io.Reader) ([]Question, Ignored, error) {
	br := bufio.NewReader(r)
	var qs []Question
	var lines []int
	var probs []Problem
	ignored := Ignored{}
	for line := 1; ; line++ {
		raw, err := br.ReadBytes('\n')
		if line == 1 {
			// A UTF-8 byte-order mark (editors on Windows write one) is
			// no part of the first object.
			raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
		}
		if len(bytes.TrimSpace(raw)) > 0 {
			var q Question
			dec := json.NewDecoder(bytes.NewReader(raw))
			others, misspelt := otherFields(raw, setFields)
			if slices.Contains(others, "answer_terms") {
				// An answer-check set is not an evaluation set: it is
				// run from its file.
				probs = append(probs, Problem{Line: line, Code: "malformed", Message: "not a {\"question\", \"relevant\", \"category\"} object: " +
					`unknown field "answer_terms" (an answer-check set: run ` + "`ragd eval answers --tenant <slug> --checks FILE`)"})
			} else if misspelt != "" {
				probs = append(probs, Problem{Line: line, Code: "malformed", Message: misspelt})
			} else if derr := dec.Decode(&q); derr != nil {
				probs = append(probs, Problem{Line: line, Code: "malformed", Message: "not a {\"question\", \"relevant\", \"category\"} object: " + derr.Error()})
			} else if dec.More() {
				probs = append(probs, Problem{Line: line, Code: "malformed", Message: "more than one JSON value on the line"})
			} else {
				qs = append(qs, q)
				lines = append(lines, line)
				for _, o := range others {
					ignored[o]++
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
	}
	probs = append(probs, relevantProblems(qs, lines)...)
	probs = append(probs, validate(qs, lines)...)
	if len(qs) == 0 && len(probs) == 0 {
		probs = append(probs, Problem{Line: 0, Code: "empty_set", Message: "the set has no questions"})
	}
	if len(probs) > 0 {
		return nil, nil, &ValidationError{Problems: probs}
	}
	return qs, ignored, nil
}

// RequireRelevant checks that every question written by a person states
// its relevant documents: a list, [] for a question the corpus cannot
// answer. An absent or null "relevant" would make the question silently
// unanswerable, and `eval tune` would calibrate refusal on it. Errors:
// *ValidationError (ErrInvalidSet), Line = position in qs (1-based).
func RequireRelevant(qs []Question) error {
	lines := make([]int, len(qs))
	for i := range lines {
		lines[i] = i + 1
	}
	if probs := relevantProblems(qs, lines); len(probs) > 0 {
		return &ValidationError{Problems: probs}
	}
	return nil
}

func relevantProblems(qs []Question, lines []int) []Problem {
	var probs []Problem
	for i, q := range qs {
		if q.Relevant == nil {
			probs = append(probs, Problem{Line: lines[i], Code: "missing_relevant",
				Message: `"relevant" is missing or null: list the source_uris that answer the question, or [] when no document does`})
		}
	}
	return probs
}

// Validate checks questions on their own: no empty or over-long question, no
// duplicate question (compared case- and space-insensitively), no empty or
// duplicate source_uri within a question, at most MaxQuestions. Unknown
// source_uris are checked against the tenant by Service.LoadSet. Errors:
// *ValidationError (ErrInvalidSet), Line = position in qs (1-based).
func Validate(qs []Question) error {
	lines := make([]int, len(qs))
	for i := range lines {
		lines[i] = i + 1
	}
	probs := validate(qs, lines)
	if len(qs) == 0 {
		probs = append(probs, Problem{Code: "empty_set", Message: "the set has no questions"})
	}
	if len(probs) > 0 {
		return &ValidationError{Problems: probs}
	}
	return nil
}

// questionKey is what makes two questions the same question: compared
// without case, with runs of spaces as one, in the form search compares
// text in (analyze.Question: pâtisserie typed precomposed or with a
// combining accent, with or without a soft hyphen). FoldOf hashes it, so
// the copies of one question always share a fold. The candidates export
// deduplicates with it too (QuestionKey).
func questionKey(question string) string {
	return strings.ToLower(strings.Join(strings.Fields(analyze.Question(question)), " "))
}

// QuestionKey is questionKey: two questions with the same key are one
// question to a set.
func QuestionKey(question string) string { return questionKey(question) }

// questionProblems checks one question's text (on line): empty, invalid
// UTF-8, over MaxQuestionChars, or the same as an earlier one (questionKey;
// seen maps each key seen to its line).
func questionProblems(question string, line int, seen map[string]int) []Problem {
	text := strings.TrimSpace(question)
	switch {
	case text == "":
		return []Problem{{Line: line, Code: "empty_question", Message: "empty question"}}
	case !utf8.ValidString(text):
		return []Problem{{Line: line, Code: "invalid_utf8", Message: "question is not valid UTF-8"}}
	case utf8.RuneCountInString(text) > MaxQuestionChars:
		return []Problem{{Line: line, Code: "too_long", Message: fmt.Sprintf("question longer than %d characters", MaxQuestionChars)}}
	}
	key := questionKey(text)
	if first, dup := seen[key]; dup {
		return []Problem{{Line: line, Code: "duplicate_question", Message: fmt.Sprintf("duplicate question (same as line %d)", first)}}
	}
	seen[key] = line
	return nil
}

func validate(qs []Question, lines []int) []Problem {
	var probs []Problem
	if len(qs) > MaxQuestions {
		probs = append(probs, Problem{Code: "too_many", Message: fmt.Sprintf("%d questions, the limit is %d", len(qs), MaxQuestions)})
	}
	seen := map[string]int{}
	for i, q := range qs {
		line := lines[i]
		probs = append(probs, questionProblems(q.Question, line, seen)...)
		if utf8.RuneCountInString(q.Category) > 100 {
			probs = append(probs, Problem{Line: line, Code: "too_long", Message: "category longer than 100 characters"})
		}
		if strings.ContainsFunc(q.Category, unicode.IsControl) {
			// Reports print categories to a terminal.
			probs = append(probs, Problem{Line: line, Code: "invalid_category", Message: "category holds a control character"})
		}
		if c := strings.TrimSpace(q.Category); strings.HasPrefix(c, UnlabelledPrefix) {
			// Loaded as they are, the retrieved sources would count as right
			// and a refused off-topic question as answerable, and `eval tune`
			// would learn to answer it.
			probs = append(probs, Problem{Line: line, Code: "unlabelled", Message: fmt.Sprintf("still unlabelled (category %q, "+
				"as `ragd eval candidates --export` writes it): keep in \"relevant\" only the sources that answer the question, "+
				"or empty it when no document does, and give it a category of your own", c)})
		}
		uris := map[string]bool{}
		for _, u := range q.Relevant {
			switch {
			case strings.TrimSpace(u) == "":
				probs = append(probs, Problem{Line: line, Code: "empty_source_uri", Message: "empty source_uri in relevant"})
			case uris[u]:
				probs = append(probs, Problem{Line: line, Code: "duplicate_source_uri", Message: fmt.Sprintf("duplicate source_uri %q in relevant", u)})
			}
			uris[u] = true
		}
	}
	return probs
}

// normalize trims questions and gives every question a non-nil Relevant.
func normalize(qs []Question) []Question {
	out := make([]Question, len(qs))
	for i, q := range qs {
		rel := q.Relevant
		if rel == nil {
			rel = []string{}
		}
		out[i] = Question{Question: strings.TrimSpace(q.Question), Relevant: rel, Category: strings.TrimSpace(q.Category)}
	}
	return out
}

// setSHA is the sha256 of the canonical JSON of normalised questions: equal
// sets (same questions, labels and order) have equal hashes.
func setSHA(qs []Question) []byte {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, q := range qs {
		_ = enc.Encode(q)
	}
	return h.Sum(nil)
}
