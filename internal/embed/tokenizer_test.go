package embed

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// tinyTokenizer builds a tokenizer over the given pieces (ids from 6 on,
// after the reserved symbols); a nil score is written as JSON null.
func tinyTokenizer(t *testing.T, pieces ...any) *tokenizer {
	t.Helper()
	vocab := []any{[]any{"\ufffd", 0}, []any{"<s>", 0}, []any{"</s>", 0}, []any{"x1", 0}, []any{"x2", 0}, []any{"x3", 0}}
	for i := 0; i < len(pieces); i += 2 {
		vocab = append(vocab, []any{pieces[i], pieces[i+1]})
	}
	b, err := json.Marshal(vocab)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := newTokenizer(b)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// TestTokenizerRules pins the TF.js behaviours that decide ids: ties, unknown
// runs, duplicates, null scores, NFKC and the word-boundary marker.
func TestTokenizerRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		pieces []any
		text   string
		want   []int
	}{
		{"empty", []any{"▁a", -1.0}, "", nil},
		// ▁a|b and ▁|ab both score −2: the match starting later (b) wins.
		{"tie goes to the later start", []any{"▁a", -1.0, "b", -1.0, "▁", -1.0, "ab", -1.0}, "ab", []int{6, 7}},
		{"higher score wins", []any{"▁a", -1.0, "b", -1.0, "▁", -1.0, "ab", -0.5}, "ab", []int{8, 9}},
		// Unknown characters are id 0, a run of them collapses to one. (Real
		// vocabularies have every common character as a piece; an unknown
		// scores 0, so it would beat any real piece.)
		{"unknown run", []any{"▁a", -1.0, "b", -1.0, "a", -2.0, "▁", -2.0}, "a€€€b", []int{6, 0, 7}},
		{"unknowns apart", []any{"▁a", -1.0, "b", -1.0, "a", -2.0, "▁", -2.0}, "a€b€", []int{6, 0, 7, 0}},
		// A duplicated piece keeps its last id and score.
		{"duplicate piece", []any{"▁a", -1.0, "▁a", -2.0, "▁", -5.0, "a", -5.0}, "a", []int{7}},
		// A null log-probability counts as 0 (free), as JS's null + x does:
		// ▁ + a: (−5 + 0) beats ▁a + : (−1 − 10).
		{"null score", []any{"▁a", -1.0, ":", -10.0, "a:", nil, "▁", -5.0, "a", -5.0}, "a:", []int{9, 8}},
		// A best score of exactly 0 reads as "not reached": the free ▁:
		// covering the whole text is overridden by ▁ + : (−2).
		{"zero best is unset", []any{"▁", -1.0, ":", -1.0, "▁:", nil}, ":", []int{6, 7}},
		// A position no piece ends at has best 0, and the Viterbi pass
		// happily continues from it: ▁|?|b instead of ▁|ab.
		{"unreached position", []any{"▁", -1.0, "ab", -1.0, "b", -1.0}, "ab", []int{6, 0, 8}},
		// Spaces become ▁; NFKC turns the ligature ﬁ into "fi".
		{"spaces and NFKC", []any{"▁a", -1.0, "▁fi", -1.0, "a", -5.0, "▁", -5.0, "f", -5.0, "i", -5.0}, "a ﬁ", []int{6, 7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tk := tinyTokenizer(t, tc.pieces...)
			if got := tk.encode(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("encode(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

// TestCountTokens checks that counts are not capped at MaxTokens.
func TestCountTokens(t *testing.T) {
	t.Parallel()
	l := setupLocal(t)
	for _, c := range loadReference(t) {
		if got := l.CountTokens(c.Text); got != len(c.TokenIDs) {
			t.Errorf("CountTokens(%.30q) = %d, want %d", c.Text, got, len(c.TokenIDs))
		}
	}
	if got := l.CountTokens(strings.Repeat("x", 300)); got != 300 {
		t.Errorf("CountTokens(300 × x) = %d, want 300 (uncapped)", got)
	}
}
