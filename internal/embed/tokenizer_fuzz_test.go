package embed

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

var (
	fuzzVocabOnce sync.Once
	fuzzTok       *tokenizer
	fuzzPieces    []string
	fuzzVocabErr  error
)

// fuzzVocab is the model's vocab.json when the model is installed, else a
// small vocabulary (so the target also runs where `make setup` has not).
func fuzzVocab() (*tokenizer, []string, error) {
	fuzzVocabOnce.Do(func() {
		raw, err := readModelFile(DefaultModelDir(os.Getenv), "vocab.json")
		if err != nil {
			raw = []byte(`[["\ufffd",0],["<s>",0],["</s>",0],["x1",0],["x2",0],["x3",0],["▁",-2],["▁a",-1],["a",-3],["b",-3],["ab",-2.5],["▁the",-1.5],["e",-4],["t",-4],["h",-4],[":",null],["://",null],["日本",-3],["_",-3]]`)
		}
		var entries [][2]any
		if fuzzVocabErr = json.Unmarshal(raw, &entries); fuzzVocabErr != nil {
			return
		}
		for _, e := range entries {
			s, _ := e[0].(string)
			fuzzPieces = append(fuzzPieces, s)
		}
		fuzzTok, fuzzVocabErr = newTokenizer(raw)
	})
	return fuzzTok, fuzzPieces, fuzzVocabErr
}

// FuzzTokenize checks the SentencePiece tokenizer on arbitrary text: no
// panic; deterministic; no tokens exactly when the normalised text is
// empty; every id a vocabulary id that is unknown (0) or a matchable piece
// (never a reserved symbol); no two unknowns in a row (runs collapse); at
// most one token per code point; and, when no character is unknown, the
// pieces spell the normalised text exactly (the lattice covers every code
// point once).
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{
		"", " ", "hello world", "effective_io_concurrency", "SELECT * FROM pg_stat_activity;",
		"日本語のテキスト", "🙂 emoji 👩‍👩‍👧", "  leading and trailing  ", "e\u0301 é", "ﬁ ligature ①", "https://example.com/a?b=c",
		"\x00\x01\x1f\x7f", "\xff\xfe invalid", "\u2581 word boundary", "a\u200bb\u202ec", strings.Repeat("ab", 300),
		"tab\tnew\nline\r\n", "ΣΊΣΥΦΟΣ σίσυφος", "İstanbul ß ẞ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tk, pieces, err := fuzzVocab()
		if err != nil {
			t.Fatal(err)
		}
		ids := tk.encode(text)
		if again := tk.encode(text); !slices.Equal(ids, again) {
			t.Fatalf("not deterministic: %v then %v", ids, again)
		}
		syms := symbols(text)
		if (len(ids) == 0) != (len(syms) == 0) {
			t.Fatalf("%q: %d tokens for %d symbols", text, len(ids), len(syms))
		}
		if len(ids) > len(syms) {
			t.Fatalf("%q: %d tokens for %d symbols", text, len(ids), len(syms))
		}
		unknown := false
		for i, id := range ids {
			if id < 0 || id >= len(pieces) || (id != unknownID && id < reservedSymbols) {
				t.Fatalf("%q: id %d out of range", text, id)
			}
			if id == unknownID {
				unknown = true
				if i > 0 && ids[i-1] == unknownID {
					t.Fatalf("%q: unknown run not collapsed: %v", text, ids)
				}
			}
		}
		if !unknown {
			var b strings.Builder
			for _, id := range ids {
				b.WriteString(pieces[id])
			}
			if b.String() != string(syms) {
				t.Fatalf("%q: pieces spell %q, want %q", text, b.String(), string(syms))
			}
		}
		if utf8.ValidString(text) && !utf8.ValidString(string(syms)) {
			t.Fatalf("%q: normalisation broke UTF-8", text)
		}
	})
}
