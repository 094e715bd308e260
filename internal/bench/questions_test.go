package bench

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestQuestionLengthsMatchSources recounts the manual's question lengths
// from the repository's evaluation sets: the embedded histogram must be
// theirs.
func TestQuestionLengthsMatchSources(t *testing.T) {
	t.Parallel()
	counts := map[int]int{}
	for _, name := range []string{"eval.jsonl", "unseen.jsonl"} {
		f, err := os.Open(filepath.Join("..", "..", "tenants", "pgdocs", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var q struct {
				Question string `json:"question"`
			}
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
				t.Fatal(err)
			}
			counts[len(strings.Fields(q.Question))]++
		}
		f.Close()
	}
	var h lengthHistogram
	for _, s := range questionSources {
		if s.name == "pgdocs" {
			h = s
		}
	}
	if len(h.words) != len(counts) {
		t.Fatalf("histogram has %d lengths, the sets %d: %v", len(h.words), len(counts), counts)
	}
	for i, w := range h.words {
		if counts[w] != h.counts[i] {
			t.Errorf("%d words: histogram %d, sets %d", w, h.counts[i], counts[w])
		}
	}
}

// TestQuestionShape checks the generator's lengths against the sources'
// pooled median and range, and its stop-word share.
func TestQuestionShape(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	v := newVocabulary(5000, 1)
	g := &gen{v: v, s: newSpace(8, []int{100}, 1), words: 20}
	stop := map[string]bool{}
	for _, w := range stopWords {
		stop[w] = true
	}
	var lengths []int
	content, total := 0, 0
	for range 2000 {
		q := g.realQuestion(r, 0)
		if !strings.HasSuffix(q, "?") {
			t.Fatalf("%q does not end in ?", q)
		}
		words := strings.Fields(strings.TrimSuffix(q, "?"))
		lengths = append(lengths, len(words))
		for _, w := range words {
			total++
			if !stop[w] {
				content++
			}
		}
	}
	slices.Sort(lengths)
	if med := lengths[len(lengths)/2]; med < 11 || med > 14 {
		t.Errorf("median length %d words, want 12-13", med)
	}
	if lengths[0] < 3 || lengths[len(lengths)-1] > 39 {
		t.Errorf("lengths %d..%d outside the sources' 3..39", lengths[0], lengths[len(lengths)-1])
	}
	// The openings add stop words and question words, so the share is a
	// little below questionContentShare.
	if share := float64(content) / float64(total); share < 0.55 || share > 0.72 {
		t.Errorf("content share %.2f, want about %.2f", share, questionContentShare)
	}
}

func TestDrawContentSkipsStopWords(t *testing.T) {
	t.Parallel()
	v := newVocabulary(3000, 2)
	r := rand.New(rand.NewPCG(1, 1))
	stop := map[string]bool{}
	for _, w := range stopWords {
		stop[w] = true
	}
	counts := map[string]int{}
	for range 100000 {
		w := v.drawContent(r)
		if stop[w] {
			t.Fatalf("drew stop word %q", w)
		}
		counts[w]++
	}
	// The corpus's Zipf frequencies: the word of rank n is drawn about
	// twice as often as the word of rank 2n.
	n := len(stopWords) + 1
	a, b := float64(counts[v.words[n-1]]), float64(counts[v.words[2*n-1]])
	if q := a / b; q < 1.6 || q > 2.5 {
		t.Errorf("rank %d / rank %d = %.2f, want about 2", n, 2*n, q)
	}
}

func TestOrQuery(t *testing.T) {
	t.Parallel()
	if got := orQuery("how do i vacuum or analyze tables?"); got != "how or do or i or vacuum or analyze or tables" {
		t.Errorf("orQuery = %q", got)
	}
}
