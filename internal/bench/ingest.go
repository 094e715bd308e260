package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// IngestStats are the ingestion throughputs, each through ingest.Pipeline
// (extract → chunk → embed → one transaction per document) into a fresh
// tenant of the bench database, deleted afterwards.
type IngestStats struct {
	// LocalPassagesPerS is the local model alone: 100-token passages, one batch.
	LocalPassagesPerS float64 `json:"local_model_passages_per_s"`
	// LocalChunksPerS is the pipeline with the local model (CPU-bound).
	LocalChunksPerS float64 `json:"local_pipeline_chunks_per_s"`
	LocalChunks     int     `json:"local_pipeline_chunks"`
	// HTTPChunksPerS is the pipeline with an OpenAI-compatible embedder that
	// adds HTTPDelayMS per request (batches of 64, 4 requests in flight per
	// document), Workers documents at a time.
	HTTPChunksPerS float64 `json:"http_pipeline_chunks_per_s"`
	HTTPChunks     int     `json:"http_pipeline_chunks"`
	HTTPRequests   int64   `json:"http_requests"`
	HTTPDelayMS    int     `json:"http_delay_ms"`
	Workers        int     `json:"workers"`
	// HTTPLargeTenantChunksPerS is the same run into the corpus's largest
	// tenant (LargeTenantRows chunks), whose inserts also go into its
	// dedicated HNSW graph and whose term statistics are large; the documents
	// are deleted afterwards.
	HTTPLargeTenantChunksPerS float64 `json:"http_pipeline_large_tenant_chunks_per_s"`
	LargeTenantRows           int     `json:"large_tenant_rows"`
}

// fakeEmbeddings is an OpenAI-compatible /embeddings endpoint that waits delay
// per request and answers each input with a unit vector derived from its
// text (deterministic, so the ingest cache behaves as with a real model).
func fakeEmbeddings(dims int, delay time.Duration, requests *atomic.Int64) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var in struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(req.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		requests.Add(1)
		time.Sleep(delay)
		var b strings.Builder
		b.WriteString(`{"object":"list","data":[`)
		for i, text := range in.Input {
			h := fnv.New64a()
			h.Write([]byte(text))
			r := rand.New(rand.NewPCG(h.Sum64(), 1))
			v := make([]float32, dims)
			for j := range v {
				v[j] = float32(r.NormFloat64())
			}
			normalize(v)
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"object":"embedding","index":`)
			b.WriteString(strconv.Itoa(i))
			b.WriteString(`,"embedding":[`)
			for j, x := range v {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
			}
			b.WriteString("]}")
		}
		b.WriteString(`]}`)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(b.String()))
	}))
}

// document returns a Markdown document of about words words in sections of
// ~180, which the default chunker splits into one chunk per section or so.
func (r *runner) document(rng *rand.Rand, words int) []byte {
	var b strings.Builder
	k := rng.IntN(len(r.space.centers))
	fmt.Fprintf(&b, "# %s %s\n\n", r.vocab.topic(k, 0), r.vocab.topic(k, 1))
	for s := 0; words > 0; s++ {
		fmt.Fprintf(&b, "## %s %s\n\n", r.vocab.topic(k, rng.IntN(topicWords)), r.vocab.inRange(rng, midLo, midHi))
		n := min(words, 180)
		for j := range n {
			if j > 0 {
				if j%15 == 0 {
					b.WriteString(". ")
				} else {
					b.WriteByte(' ')
				}
			}
			if rng.Float64() < topicShare {
				b.WriteString(r.vocab.topic(k, rng.IntN(topicWords)))
			} else {
				b.WriteString(r.vocab.draw(rng))
			}
		}
		b.WriteString(".\n\n")
		words -= n
	}
	return []byte(b.String())
}

// ingestRun upserts documents until about chunks chunks are stored, workers
// documents at a time, into tenant into, or (uuid.Nil) into a new tenant that
// is deleted afterwards; the documents written into an existing tenant are
// deleted afterwards. It returns the chunks stored and the wall time.
func (r *runner) ingestRun(ctx context.Context, pool *pgxpool.Pool, emb embed.Embedder, chunks, workers int, seed uint64, into uuid.UUID) (int, time.Duration, error) {
	p, err := ingest.New(pool, emb, r.model.id, ingest.WithLogger(r.quiet))
	if err != nil {
		return 0, 0, err
	}
	prefix := "bench://ingest/"
	if into == uuid.Nil {
		slug := "bench-ingest-" + uuid.NewString()[:8]
		row, err := store.New().CreateTenant(ctx, r.owner, store.CreateTenantParams{Slug: slug, Name: "ragd bench ingestion", TsConfig: "english"})
		if err != nil {
			return 0, 0, err
		}
		defer r.dropTenant(context.WithoutCancel(ctx), row.ID)
		into = row.ID
	} else {
		prefix = "bench://ingest-" + uuid.NewString()[:8] + "/"
		defer r.dropDocuments(context.WithoutCancel(ctx), into, prefix)
	}
	tn, err := tenant.Load(ctx, pool, into)
	if err != nil {
		return 0, 0, err
	}
	rng := rand.New(rand.NewPCG(seed, 77))
	// ~4 chunks a document: documents are generated up front, outside the timing.
	var docs []ingest.Document
	for i := 0; i < max(1, chunks/4); i++ {
		docs = append(docs, ingest.Document{SourceURI: fmt.Sprintf("%s%d.md", prefix, i), ContentType: "text/markdown",
			Content: r.document(rng, 600+rng.IntN(240))})
	}
	var stored atomic.Int64
	_, wall, err := timed(len(docs), workers, func(i int) error {
		out, err := p.Upsert(ctx, tn, docs[i])
		stored.Add(int64(out.Chunks))
		return err
	})
	return int(stored.Load()), wall, err
}

// dropTenant deletes a tenant and its rows (tenant.Purge: bottom-up and
// set-based, as `ragd tenant delete` does).
func (r *runner) dropTenant(ctx context.Context, id uuid.UUID) {
	if _, err := tenant.Purge(ctx, r.owner, id); err != nil {
		r.logf("warning: delete ingestion tenant %s: %v", id, err)
	}
}

// dropDocuments deletes tenant id's documents under prefix (their chunks,
// embeddings and postings go with them).
func (r *runner) dropDocuments(ctx context.Context, id uuid.UUID, prefix string) {
	err := store.InTenant(ctx, r.app, id, func(tx pgx.Tx) error {
		q := store.New()
		if err := q.UseAutoPlans(ctx, tx); err != nil {
			return err
		}
		return q.BenchDeleteDocumentsByPrefix(ctx, tx, store.BenchDeleteDocumentsByPrefixParams{TenantID: id, Prefix: prefix})
	})
	if err != nil {
		r.logf("warning: delete ingested documents of %s: %v", id, err)
	}
}

// measureIngest measures the local model and the two pipelines.
func (r *runner) measureIngest(ctx context.Context) (IngestStats, error) {
	st := IngestStats{HTTPDelayMS: int(r.cfg.HTTPDelay / time.Millisecond), Workers: r.cfg.IngestWorkers}
	if r.local != nil && r.local.Dims() == r.model.dims {
		// The model alone: 64 passages of 100 tokens.
		rng := rand.New(rand.NewPCG(r.cfg.Seed, 99))
		passages := make([]string, 64)
		for i := range passages {
			var words []string
			for len(r.local.Tokenize(strings.Join(words, " "))) < 100 {
				words = append(words, r.vocab.draw(rng))
			}
			passages[i] = strings.Join(words, " ")
		}
		if _, err := r.local.Embed(ctx, passages[:4]); err != nil { // warm-up
			return st, err
		}
		start := time.Now()
		if _, err := r.local.Embed(ctx, passages); err != nil {
			return st, err
		}
		st.LocalPassagesPerS = float64(len(passages)) / time.Since(start).Seconds()
		r.logf("ingest: local model %.0f passages/s", st.LocalPassagesPerS)

		n, wall, err := r.ingestRun(ctx, r.app, r.local, r.cfg.IngestLocalChunks, 2, r.cfg.Seed+1, uuid.Nil)
		if err != nil {
			return st, fmt.Errorf("bench: ingest with the local model: %w", err)
		}
		st.LocalChunks, st.LocalChunksPerS = n, float64(n)/wall.Seconds()
		r.logf("ingest: local model pipeline %d chunks, %.0f chunks/s", n, st.LocalChunksPerS)
	}

	var requests atomic.Int64
	srv := fakeEmbeddings(r.model.dims, r.cfg.HTTPDelay, &requests)
	defer srv.Close()
	emb, err := embed.NewOpenAI(srv.URL, r.model.name, r.model.dims, embed.WithOpenAIMaxRetries(0))
	if err != nil {
		return st, err
	}
	n, wall, err := r.ingestRun(ctx, r.app, emb, r.cfg.IngestChunks, r.cfg.IngestWorkers, r.cfg.Seed+2, uuid.Nil)
	if err != nil {
		return st, fmt.Errorf("bench: ingest with the HTTP embedder: %w", err)
	}
	st.HTTPChunks, st.HTTPChunksPerS, st.HTTPRequests = n, float64(n)/wall.Seconds(), requests.Load()
	r.logf("ingest: HTTP embedder (+%s per request) pipeline %d chunks, %.0f chunks/s", r.cfg.HTTPDelay, n, st.HTTPChunksPerS)

	big := r.tenants[0]
	n, wall, err = r.ingestRun(ctx, r.app, emb, r.cfg.IngestChunks, r.cfg.IngestWorkers, r.cfg.Seed+3, big.id)
	if err != nil {
		return st, fmt.Errorf("bench: ingest into the largest tenant: %w", err)
	}
	st.LargeTenantRows, st.HTTPLargeTenantChunksPerS = big.rows, float64(n)/wall.Seconds()
	r.logf("ingest: same into the largest tenant (%d chunks): %.0f chunks/s", big.rows, st.HTTPLargeTenantChunksPerS)
	return st, nil
}
