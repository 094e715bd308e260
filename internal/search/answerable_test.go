package search

import (
	"math"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/tenant"
)

func TestNameLike(t *testing.T) {
	cases := []struct {
		word  string
		first bool
		want  bool
	}{
		{"MongoDB", false, true}, {"MongoDB", true, true}, // inner capital
		{"io_method", false, true}, {"42P01", true, true}, {"ipv6", false, true}, // underscore, digits
		{"AOF", false, true}, {"RDS", true, true}, // all capitals
		{"Kubernetes", false, true}, {"Kubernetes", true, false}, // capitalised inside the sentence only
		{"index", false, false}, {"How", true, false}, {"2022", false, false}, {"I", true, false},
		{"数据库", false, false}, // no case
	}
	for _, c := range cases {
		if got := NameLike(c.word, c.first); got != c.want {
			t.Errorf("NameLike(%q, first=%v) = %v, want %v", c.word, c.first, got, c.want)
		}
	}
}

func TestProbeWords(t *testing.T) {
	got := probeWords("How do I set up sharding in MongoDB, and what does io_method do? MongoDB again; see 42P01.")
	var words, texts []string
	for _, p := range got {
		words = append(words, p.word)
		texts = append(texts, p.text)
	}
	if strings.Join(words, " ") != "MongoDB io_method 42P01" {
		t.Fatalf("words %q", words)
	}
	if strings.Join(texts, " ") != "MongoDB iomethod 42P01" {
		t.Fatalf("texts %q: an identifier is looked up joined, as CompoundTerms indexes it", texts)
	}
	many := strings.Repeat("Name ", 10) + strings.Repeat("X1 X2 X3 X4 X5 X6 X7 X8 X9 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Z1 Z2 Z3 Z4 Z5 Z6 Z7 Z8 Z9 W1 W2 W3 W4 W5 W6 W7 ", 1)
	if n := len(probeWords(many)); n != maxProbes {
		t.Fatalf("%d probes, want the cap %d", n, maxProbes)
	}
}

func TestTermShare(t *testing.T) {
	idf := map[string]float64{"a": 1, "b": 3}
	if got := termShare([]string{"b", "b"}, idf, 4); got != 0.75 {
		t.Fatalf("termShare = %v, want 0.75 (each lexeme once)", got)
	}
	if got := termShare(nil, idf, 0); got != 0 {
		t.Fatalf("no idf mass: %v", got)
	}
}

func TestAnswerProbabilityMonotone(t *testing.T) {
	p := answerProbability
	if !(p(0.1, 0.2, false, 4) < p(0.5, 0.2, false, 4) && p(0.5, 0.2, false, 4) < p(0.5, 0.8, false, 4)) {
		t.Fatal("more coverage must not lower the probability")
	}
	if !(p(0.6, 0.9, true, 4) < p(0.6, 0.9, false, 4)) {
		t.Fatal("a missing name must lower the probability")
	}
	for _, v := range []float64{p(0, 0, true, 1), p(1, 1, false, 40)} {
		if v <= 0 || v >= 1 || math.IsNaN(v) {
			t.Fatalf("probability %v outside (0, 1)", v)
		}
	}
}

func TestAssessReasons(t *testing.T) {
	s := &Searcher{}
	set := s.Settings(tenant.Tenant{}, nil)
	p := plan{set: set, useKeyword: true}
	legs := legResults{ranKeyword: true, idfSum: 10, idf: map[string]float64{"shard": 3, "mongodb": 7},
		kw: []legHit{{value: 2, matched: []string{"shard"}}}, missing: []string{"MongoDB"}}
	var r Response
	s.assess(p, legs, &r)
	if r.ConfidenceReason != "no document mentions “MongoDB”" || r.Confidence >= *set.RefuseBelow {
		t.Fatalf("missing name: confidence %v, reason %q", r.Confidence, r.ConfidenceReason)
	}
	if math.Abs(r.TermCoverage-0.3) > 1e-12 {
		t.Fatalf("term coverage %v, want 0.3", r.TermCoverage)
	}
	var stop Response
	s.assess(plan{set: set, useKeyword: true}, legResults{}, &stop)
	if stop.Confidence != 0 || stop.ConfidenceReason == "" {
		t.Fatalf("stop words only: %+v", stop)
	}
}
