package loadgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseMix(t *testing.T) {
	t.Parallel()
	if m, err := ParseMix("80, 15,5"); err != nil || m != [3]int{80, 15, 5} {
		t.Errorf("ParseMix = %v, %v", m, err)
	}
	for _, bad := range []string{"50,50,50", "100,0", "a,b,c", "-10,60,50"} {
		if _, err := ParseMix(bad); err == nil {
			t.Errorf("ParseMix(%q): no error", bad)
		}
	}
}

// TestReadQuestions reads a plain list and the manual's evaluation set,
// whose question fields make.load sends to the manual's tenant.
func TestReadQuestions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plain := filepath.Join(dir, "q.txt")
	if err := os.WriteFile(plain, []byte("# comment\nwhat is vacuum\n\n  how do I index  \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if qs, err := ReadQuestions(plain); err != nil || len(qs) != 2 || qs[1] != "how do I index" {
		t.Errorf("plain: %q, %v", qs, err)
	}
	set := filepath.Join("..", "..", "tenants", "pgdocs", "eval.jsonl")
	raw, err := os.ReadFile(set)
	if err != nil {
		t.Fatal(err)
	}
	lines := 0 // the set's questions: one a non-empty line
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.TrimSpace(l) != "" {
			lines++
		}
	}
	qs, err := ReadQuestions(set)
	if err != nil || len(qs) != lines || !strings.HasSuffix(qs[0], "?") {
		t.Errorf("eval.jsonl: %d questions, first %q, %v", len(qs), qs[:min(1, len(qs))], err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"question": "ok?"}`+"\n"+`{"q": 1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadQuestions(bad); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") {
		t.Errorf("bad.jsonl: %v, want an error naming line 2", err)
	}
}

// TestGeneratedQuestions: real-question lengths, words of the seeded
// documents, deterministic.
func TestGeneratedQuestions(t *testing.T) {
	t.Parallel()
	qs := GeneratedQuestions(300, 1)
	if len(qs) != 300 || strings.Join(qs, "\n") != strings.Join(GeneratedQuestions(300, 1), "\n") {
		t.Fatal("want 300 questions, the same for the same seed")
	}
	known := map[string]bool{}
	for _, w := range loadWords {
		known[w] = true
	}
	total, long := 0, 0
	for _, q := range qs {
		words := strings.Fields(strings.TrimSuffix(q, "?"))
		total += len(words)
		if len(words) >= 10 {
			long++
		}
		hit := false
		for _, w := range words {
			hit = hit || known[w]
		}
		if !hit && len(words) > 4 {
			t.Errorf("%q has no word of the seeded documents", q)
		}
	}
	if mean := float64(total) / float64(len(qs)); mean < 10 || mean > 15 {
		t.Errorf("mean length %.1f words, want about 12", mean)
	}
	if long < len(qs)/2 {
		t.Errorf("%d of %d questions have 10 words or more", long, len(qs))
	}
}
