package search_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

func f64(v float64) *float64 { return &v }

// TestSingleLegFallbackWhateverTheFusion: when only one leg runs (the
// question's script is not represented by the embedding model, so the
// vector leg is left out), its results are served whatever the fusion
// method and the weight the tenant gave that leg, as the convex fusion
// already does: a tenant fusing with RRF at keyword weight 0 must not get
// an empty result list for a Chinese question its documents answer.
func TestSingleLegFallbackWhateverTheFusion(t *testing.T) {
	t.Parallel()
	tn, s := scriptTenant(t, "")
	for _, fusion := range []string{search.FusionConvex, search.FusionRRF} {
		set := tenant.Settings{Fusion: fusion, VectorWeight: f64(1), KeywordWeight: f64(0)}
		resp, err := s.Search(context.Background(), tn, search.Request{Query: "连接池的大小应该怎么设置？", TopK: 3, Settings: &set})
		if err != nil {
			t.Fatal(err)
		}
		if !resp.Degraded || len(resp.Results) == 0 || resp.Results[0].SourceURI != "zh/pool.md" {
			t.Errorf("%s, vector leg only, Chinese question: degraded %v, %d results (first %v); want the keyword leg's, zh/pool.md first",
				fusion, resp.Degraded, len(resp.Results), firstURI(resp))
		}
	}
}

func firstURI(r search.Response) string {
	if len(r.Results) == 0 {
		return ""
	}
	return r.Results[0].SourceURI
}

// TestHostileQueries: queries that analyse to nothing, punctuation only,
// the longest allowed query of identifiers or of name-like words (far more
// than the probe cap), long CJK runs and stray marks either succeed with a
// finite confidence in [0, 1] and finite scores, or fail with a validation
// error; never with another error. (Their cost is recorded in
// docs/SECURITY.md, not asserted here: the slowest, "a_" × 2000, takes
// 0.32 s on the shared 2-core machine, 100 s before the query's lexemes were
// computed once per statement.)
func TestHostileQueries(t *testing.T) {
	t.Parallel()
	tn, s := scriptTenant(t, "")
	var idents, names, cjk strings.Builder
	for i := 0; idents.Len() < 3990; i++ {
		fmt.Fprintf(&idents, "pg_stat_x%d ", i)
	}
	for i := 0; names.Len() < 3990; i++ {
		fmt.Fprintf(&names, "Q%d ", i)
	}
	for i := 0; i < 4000; i++ {
		cjk.WriteRune(rune(0x4E00 + i))
	}
	for _, q := range []string{
		"?!...", "？。！、「」", "the of and is a", "____", "-.-.-", "_a_", "🙂🙂🙂", "\u0301\u0301", "\u200d\u200d", "١٢٣",
		idents.String(), names.String(), cjk.String(), strings.Repeat("连接池", 1333), strings.Repeat("x", 4000),
		strings.Repeat("a_", 2000), strings.Repeat("Ab1_", 1000), "مرحبا بالعالم كيف حالك", "pg_stat_activity表记录什么？？？",
	} {
		resp, err := s.Search(context.Background(), tn, search.Request{Query: q, TopK: 5})
		if err != nil {
			if !errors.Is(err, search.ErrEmptyQuery) && !errors.Is(err, search.ErrQueryTooLong) {
				t.Errorf("%.40q: %v", q, err)
			}
			continue
		}
		if c := resp.Confidence; math.IsNaN(c) || c < 0 || c > 1 {
			t.Errorf("%.40q: confidence %v", q, c)
		}
		for _, r := range resp.Results {
			if math.IsNaN(r.Score) || math.IsInf(r.Score, 0) {
				t.Errorf("%.40q: score %v", q, r.Score)
			}
		}
		if len(resp.MissingTerms) > 32 {
			t.Errorf("%.40q: %d missing terms, above the probe cap", q, len(resp.MissingTerms))
		}
	}
}

// TestOtherTenantsVocabularyIsInvisible: missing_terms, the confidence
// and the results of one tenant's search do not change when another tenant
// ingests a document with exactly the question's names and words.
func TestOtherTenantsVocabularyIsInvisible(t *testing.T) {
	t.Parallel()
	tn, s := scriptTenant(t, "")
	ctx := context.Background()
	q := search.Request{Query: "How does Zorblaxium tune the quux_frobnicator with FLARGLE9?", TopK: 5}
	before, err := s.Search(ctx, tn, q)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Zorblaxium", "quux_frobnicator", "FLARGLE9"}
	if !reflect.DeepEqual(before.MissingTerms, want) || before.Confidence >= tenant.DefaultRefuseBelow {
		t.Fatalf("missing terms %v (confidence %.3f), want %v below the refusal threshold", before.MissingTerms, before.Confidence, want)
	}

	emb, err := embed.NewLocal(embed.DefaultModelDir(os.Getenv))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ingest.New(testdb.App(t), emb, 1)
	if err != nil {
		t.Fatal(err)
	}
	other := testdb.NewTenant(t, "vocab-other", "")
	ot, err := tenant.Load(ctx, testdb.App(t), other.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Upsert(ctx, ot, ingest.Document{SourceURI: "other/zorblaxium.md", ContentType: "text/markdown",
		Content: []byte("# Zorblaxium\n\nZorblaxium tunes the quux_frobnicator with FLARGLE9: set the tune option and restart.")}); err != nil {
		t.Fatal(err)
	}
	// The other tenant does find it (the document is searchable).
	if r, err := s.Search(ctx, ot, q); err != nil || len(r.MissingTerms) != 0 || firstURI(r) != "other/zorblaxium.md" {
		t.Fatalf("the other tenant's own search: missing %v, first %q, %v", r.MissingTerms, firstURI(r), err)
	}
	after, err := s.Search(ctx, tn, q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after.MissingTerms, before.MissingTerms) || after.Confidence != before.Confidence ||
		after.KeywordCoverage != before.KeywordCoverage || after.TermCoverage != before.TermCoverage ||
		after.ConfidenceReason != before.ConfidenceReason || len(after.Results) != len(before.Results) {
		t.Fatalf("another tenant's document changed the search: before %v %.4f %q, after %v %.4f %q", before.MissingTerms, before.Confidence,
			before.ConfidenceReason, after.MissingTerms, after.Confidence, after.ConfidenceReason)
	}
	for i := range after.Results {
		if after.Results[i].ChunkID != before.Results[i].ChunkID || after.Results[i].Score != before.Results[i].Score {
			t.Fatalf("result %d changed: %+v, was %+v", i, after.Results[i], before.Results[i])
		}
	}
}

// TestConcurrentSearchesOnOneSearcher: one Searcher serves many searches at
// once (two tenants, every fusion, overrides, CJK and English questions)
// with the same results as one at a time (run under -race: Search never
// writes shared state).
func TestConcurrentSearchesOnOneSearcher(t *testing.T) {
	t.Parallel()
	tn, s := scriptTenant(t, "")
	tn2, _ := scriptTenant(t, "simple")
	ctx := context.Background()
	rrf := tenant.Settings{Fusion: search.FusionRRF, VectorWeight: f64(0.5), KeywordWeight: f64(1), RRFK: 10}
	convex := tenant.Settings{Fusion: search.FusionConvex, VectorWeight: f64(1), KeywordWeight: f64(1), DocumentWeight: f64(0.5)}
	type job struct {
		t   tenant.Tenant
		req search.Request
	}
	var jobs []job
	for _, tt := range []tenant.Tenant{tn, tn2} {
		for _, q := range []string{"How large should a connection pool be?", "连接池的大小应该怎么设置？", "pg_stat_activity", "the of and", "Kubernetes FooDB"} {
			for _, set := range []*tenant.Settings{nil, &rrf, &convex} {
				jobs = append(jobs, job{tt, search.Request{Query: q, TopK: 5, Settings: set}})
			}
			jobs = append(jobs, job{tt, search.Request{Query: q, TopK: 5, Only: search.LegKeyword}})
		}
	}
	type outcome struct {
		ids        []string
		confidence float64
		missing    []string
	}
	run := func(j job) (outcome, error) {
		r, err := s.Search(ctx, j.t, j.req)
		o := outcome{confidence: r.Confidence, missing: r.MissingTerms}
		for _, x := range r.Results {
			o.ids = append(o.ids, fmt.Sprintf("%s %.12g", x.ChunkID, x.Score))
		}
		return o, err
	}
	want := make([]outcome, len(jobs))
	for i, j := range jobs {
		var err error
		if want[i], err = run(j); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(jobs))
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := range jobs {
				i := (k + w*7) % len(jobs)
				got, err := run(jobs[i])
				if err == nil && !reflect.DeepEqual(got, want[i]) {
					err = fmt.Errorf("%q (%+v): concurrent %+v, alone %+v", jobs[i].req.Query, jobs[i].req.Settings, got, want[i])
				}
				if err != nil {
					errs <- err
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestKeywordLegScoresTheRarestTerms: the keyword leg scores at most the 64
// rarest of a query's terms (migration 00014: its work grows with the
// square of the distinct terms, 11.4 s for a 600-word question on a
// 5,000-chunk tenant). A tenant whose words qa00…qa63 occur in one chunk
// each and qa64…qa69 in two: the 70-word query finds the 64 rare words'
// chunks and none of the common words' alone, which a query of the
// common words does find.
func TestKeywordLegScoresTheRarestTerms(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, "rarest", "simple")
	var words, texts []string
	for i := 0; i < 70; i++ {
		w := fmt.Sprintf("qa%02d", i)
		words = append(words, w)
		texts = append(texts, w)
		if i >= 64 {
			texts = append(texts, w)
		}
	}
	err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body, chunk_count)
			VALUES ($1, 'fill://words', 'text/plain', '\x00'::bytea, 'fill', 'words', $2)`, tn.ID, len(texts)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			SELECT $1, d.id, g.i - 1, g.t, 1, 0, 1, 'simple' FROM unnest($2::text[]) WITH ORDINALITY g (t, i)
			JOIN documents d ON d.tenant_id = $1 AND d.source_uri = 'fill://words'`, tn.ID, texts)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tt, err := tenant.Load(ctx, pool, tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	s := &search.Searcher{Pool: pool, Embedder: testEmbedder(t), ModelID: 1, MaxTopK: 200}
	found := func(q string) map[string]int {
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 200, Only: search.LegKeyword})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, r := range resp.Results {
			out[r.Content]++
		}
		return out
	}
	all := found(strings.Join(words, " "))
	for i, w := range words {
		if want := map[bool]int{true: 1, false: 0}[i < 64]; all[w] != want {
			t.Errorf("70-word query: %d chunks of %s, want %d", all[w], w, want)
		}
	}
	if common := found(strings.Join(words[64:], " ")); len(common) != 6 || common["qa69"] != 2 {
		t.Errorf("the common words alone find %v, want their 12 chunks", common)
	}
}

// testEmbedder is the local model (unused by keyword-leg searches, but a
// Searcher needs one).
func testEmbedder(t *testing.T) embed.Embedder {
	t.Helper()
	useLiteOnce.Do(func() { useLite, useLiteErr = embed.NewLocal(embed.DefaultModelDir(os.Getenv)) })
	if useLiteErr != nil {
		t.Fatalf("local model: %v (run `make setup`)", useLiteErr)
	}
	return useLite
}
