package search_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/provider/providertest"
	"github.com/ragd-dev/ragd/internal/rerank"
	"github.com/ragd-dev/ragd/internal/search"
)

// TestStrayProperNameIsRefused (h-trial20): a question whose rarest word
// is a proper name that the documents write only in passing, in none of
// the best passages, is about something they do not cover: "How do I
// configure the Hibernate second-level cache region?" over SQLAlchemy's
// documentation, which names Hibernate in a comparison, was answered at
// 0.45 with dogpile caching. The confidence is capped and the reason names
// the word. A question whose best passage writes the name is left to the
// model, and so is an abbreviation (the passage that answers often writes
// it out).
func TestStrayProperNameIsRefused(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"caching.md": "# Caching\n\nThe query cache keeps the rows of a query in a cache region. " +
			"Each cache region has its own expiration time, and an entity's rows are cached in the region its mapper names.",
		"regions.md": "# Cache regions\n\nConfigure a cache region with its backend and expiration time. " +
			"A region for each entity keeps the cache small.",
		"expiry.md":   "# Expiration\n\nA cache region expires its entries after the time configured for the region.",
		"backends.md": "# Backends\n\nConfigure the cache backend of a region: memory, a file or a cache server.",
		"entities.md": "# Entity caching\n\nAn entity is cached in the region configured for its class; configure one region per entity.",
		"keys.md":     "# Cache keys\n\nEach cached entity is stored under a key made of its region and its primary key.",
		"history.md":  "# History\n\nThe session's unit of work resembles the one Hibernate popularised for Java; the identity map is older.",
		"pressure.md": "# Blood pressure\n\nA diastolic blood pressure above ninety is associated with a second-level cache of warnings.",
	}
	// Pages on other subjects, as a real corpus has: the question's words
	// are then rare enough that the cache pages rank above the one naming
	// Hibernate, as they do over SQLAlchemy's 3,626 chunks.
	for i, topic := range []string{"logging", "pooling", "migrations", "events", "types", "dialects", "sessions", "queries",
		"relationships", "inheritance", "constraints", "indexes", "sequences", "triggers", "views", "schemas",
		"reflection", "transactions", "savepoints", "cursors", "results", "rows", "columns", "tables"} {
		docs[topic+".md"] = fmt.Sprintf("# %s\n\nThis page describes %s: chapter %d of the guide, with examples.", strings.ToUpper(topic[:1])+topic[1:], topic, i+1)
	}
	tt, s := corpusTenant(t, "stray", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		capped   bool
	}{
		{"How do I configure the Hibernate cache region for an entity?", true},
		{"Which unit of work did Hibernate popularise?", false},
		{"How do I configure the cache region for an entity?", false},
		{"Is the DBP cache region configured per entity?", false},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if resp.Signals.Capped != tc.capped {
			t.Errorf("%q: capped %v (confidence %.3f, reason %q), want %v", tc.question, resp.Signals.Capped, resp.Confidence, resp.ConfidenceReason, tc.capped)
		}
		if tc.capped && (resp.Confidence >= 0.33 || !strings.Contains(resp.ConfidenceReason, "“Hibernate”")) {
			t.Errorf("%q: confidence %.3f, reason %q; want a refusal naming Hibernate", tc.question, resp.Confidence, resp.ConfidenceReason)
		}
	}
}

// TestStrayNameIsJudgedOnTheRerankedPassages (h-review17): with a reranker,
// the best passages are the reranked ones; a passage naming the question's
// proper name that the reranker brings into the first five is a passage
// that writes it, and the question is not capped with a reason saying the
// best passages do not mention it.
func TestStrayNameIsJudgedOnTheRerankedPassages(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"caching.md":  "# Caching\n\nThe query cache keeps the rows of a query in a cache region. Each cache region has its own expiration time.",
		"regions.md":  "# Cache regions\n\nConfigure a cache region with its backend and expiration time. A region for each entity keeps the cache small.",
		"expiry.md":   "# Expiration\n\nA cache region expires its entries after the time configured for the region.",
		"backends.md": "# Backends\n\nConfigure the cache backend of a region: memory, a file or a cache server.",
		"entities.md": "# Entity caching\n\nAn entity is cached in the region configured for its class; configure one region per entity.",
		"keys.md":     "# Cache keys\n\nEach cached entity is stored under a key made of its region and its primary key.",
		"history.md":  "# History\n\nThe session's unit of work resembles the one Hibernate popularised for Java; the identity map is older.",
	}
	for i, topic := range []string{"logging", "pooling", "migrations", "events", "types", "dialects", "sessions", "queries",
		"relationships", "inheritance", "constraints", "indexes", "sequences", "triggers", "views", "schemas"} {
		docs[topic+".md"] = fmt.Sprintf("# %s\n\nThis page describes %s: chapter %d of the guide, with examples.", strings.ToUpper(topic[:1])+topic[1:], topic, i+1)
	}
	tt, s := corpusTenant(t, "stray-rerank", "english", docs)
	q := "How do I configure the Hibernate cache region for an entity?"
	ctx := context.Background()
	plain, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !plain.Signals.Capped {
		t.Fatalf("without a reranker: not capped (confidence %.3f); the case tests nothing", plain.Confidence)
	}
	// A reranker that puts every passage naming Hibernate first.
	srv := httptest.NewServer(providertest.RerankHandler(func(i int, d string) float64 {
		if strings.Contains(d, "Hibernate") {
			return 1
		}
		return 1 / float64(2+i)
	}))
	t.Cleanup(srv.Close)
	rr, err := rerank.New(srv.URL+"/v1", "fake-rerank", rerank.WithMaxRetries(0), rerank.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	withRerank := *s
	withRerank.Reranker = rr
	resp, err := withRerank.Search(ctx, tt, search.Request{Query: q, TopK: 5})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Degraded || len(resp.Results) == 0 || !strings.Contains(resp.Results[0].Content, "Hibernate") {
		t.Fatalf("the reranker did not put the Hibernate passage first (degraded %v): the case tests nothing", resp.Degraded)
	}
	if resp.Signals.Capped {
		t.Errorf("reranked: capped (reason %q) though the first passage names Hibernate", resp.ConfidenceReason)
	}
}
