package embed

import (
	"encoding/json"
	"fmt"

	"golang.org/x/text/unicode/norm"
)

// wordBoundary is U+2581 LOWER ONE EIGHTH BLOCK, SentencePiece's word marker.
const wordBoundary = '\u2581'

// reservedSymbols is the number of leading vocabulary entries (unknown,
// <s>, </s> and three extra ids) that are never matched against text.
const reservedSymbols = 6

// unknownID is the id of a character no vocabulary piece starts with.
const unknownID = 0

// tokenizer is the SentencePiece unigram tokenizer of USE-lite, reproducing
// the TF.js universal-sentence-encoder tokenizer exactly (including its
// quirks, which matter for id parity): a trie of the pieces, a Viterbi pass
// that maximises the sum of piece log-probabilities, and collapsing of runs of
// unknown tokens. Source: Kudo 2018, "Subword Regularization" (unigram LM),
// arXiv:1804.10959. It is immutable after construction and safe for
// concurrent use.
type tokenizer struct {
	pieceLen []int32 // length in code points of every vocabulary piece (for the backward pass)
	// Trie over code points. Node 0 is the root; children maps
	// node<<32|rune to the child node.
	children map[uint64]int32
	nodeID   []int32   // vocabulary id ending at a node, or -1
	score    []float64 // log-probability of that piece
}

// newTokenizer builds the tokenizer from the contents of vocab.json, a JSON
// array of [piece, log_prob] pairs whose index is the token id.
func newTokenizer(vocabJSON []byte) (*tokenizer, error) {
	var raw [][2]any
	if err := json.Unmarshal(vocabJSON, &raw); err != nil {
		return nil, fmt.Errorf("vocab.json: %w", err)
	}
	if len(raw) <= reservedSymbols {
		return nil, fmt.Errorf("vocab.json: %d entries, want more than %d", len(raw), reservedSymbols)
	}
	tk := &tokenizer{
		pieceLen: make([]int32, len(raw)),
		children: make(map[uint64]int32, 3*len(raw)),
		nodeID:   []int32{-1},
		score:    []float64{0},
	}
	for id, e := range raw {
		piece, ok1 := e[0].(string)
		lp, ok2 := e[1].(float64)
		if e[1] == nil {
			// Seven pieces with a colon (":", "://", "▁:)", …) have a null
			// log-probability in this vocab.json. TF.js adds null as 0, which
			// makes them free in the Viterbi pass; do the same for parity.
			lp, ok2 = 0, true
		}
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("vocab.json: entry %d is not [string, number]", id)
		}
		tk.pieceLen[id] = int32(max(1, len([]rune(piece))))
		if id < reservedSymbols || piece == "" {
			continue
		}
		node := int32(0)
		for _, r := range piece {
			key := uint64(node)<<32 | uint64(uint32(r))
			child, ok := tk.children[key]
			if !ok {
				child = int32(len(tk.nodeID))
				tk.children[key] = child
				tk.nodeID = append(tk.nodeID, -1)
				tk.score = append(tk.score, 0)
			}
			node = child
		}
		// A duplicated piece keeps the later id and score, as the TF.js trie does.
		tk.nodeID[node] = int32(id)
		tk.score[node] = lp
	}
	return tk, nil
}

// symbols normalises text the way the TF.js tokenizer does: NFKC, then, if
// non-empty, a leading U+2581 and every U+0020 space replaced by U+2581. It
// returns the code points.
func symbols(text string) []rune {
	s := norm.NFKC.String(text)
	if s == "" {
		return nil
	}
	out := make([]rune, 0, len(s)+1)
	out = append(out, wordBoundary)
	for _, r := range s {
		if r == ' ' {
			r = wordBoundary
		}
		out = append(out, r)
	}
	return out
}

// encode returns the token ids of text (all of them; the model reads only the
// first MaxTokens). An empty text has no tokens; any other text has at least
// one.
//
// Viterbi over the lattice of every vocabulary match, maximising the summed
// log-probabilities. Ties go to the match that starts later (the TF.js code
// compares with >=, visiting start positions in increasing order). A
// position where no piece starts yields one unknown token (id 0, score 0).
// Like TF.js, a best score of exactly 0 counts as "not reached yet". Runs of
// unknown tokens collapse into one.
func (tk *tokenizer) encode(text string) []int {
	syms := symbols(text)
	n := len(syms)
	if n == 0 {
		return nil
	}
	best := make([]float64, n+1)
	words := make([]int32, n+1)
	relax := func(end int, sc float64, id int32) {
		if best[end] == 0 || sc >= best[end] {
			best[end] = sc
			words[end] = id
		}
	}
	for i := 0; i < n; i++ {
		node := int32(0)
		matched := false
		for j := i; j < n; j++ {
			child, ok := tk.children[uint64(node)<<32|uint64(uint32(syms[j]))]
			if !ok {
				break
			}
			node = child
			if id := tk.nodeID[node]; id >= 0 {
				matched = true
				relax(j+1, tk.score[node]+best[i], id)
			}
		}
		if !matched {
			relax(i+1, best[i], unknownID)
		}
	}
	// Backward pass from the end, then collapse unknown runs and reverse.
	rev := make([]int, 0, n/3+1)
	for it := n; it > 0; {
		id := words[it]
		if !(id == unknownID && len(rev) > 0 && rev[len(rev)-1] == unknownID) {
			rev = append(rev, int(id))
		}
		it -= int(tk.pieceLen[id])
	}
	for l, r := 0, len(rev)-1; l < r; l, r = l+1, r-1 {
		rev[l], rev[r] = rev[r], rev[l]
	}
	return rev
}
