package ask_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// An extractive answer is given each source's neighbourhood in its document:
// the text from the previous chunk's start to the next chunk's end, with
// offsets into the stored body, so that a passage can cross a chunk boundary
// and its citation still names text the caller was given.
func TestAskWidensExtractiveSourcesToNeighbourChunks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, tt, tn, emb, p := smallChunkTenant(t, "ask-widen")
	sections := []string{
		"## Overview\n\nSeveral approaches exist for keeping copies of your data. Each has its own strengths and weaknesses for an installation.",
		"## Snapshots\n\nThe snapshot method writes a file of commands that recreate the whole database. The program quokkadump serves this purpose.",
		"## Usage\n\nIts basic usage is a single command line. Run it from any client machine with network access to the server.",
		"## Archives\n\nContinuous archiving keeps every change in a log. Restoring replays the log onto a base copy of the files.",
	}
	out, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/backup", ContentType: "text/markdown",
		Content: []byte("# Backup\n\n" + strings.Join(sections, "\n\n"))})
	if err != nil {
		t.Fatal(err)
	}
	if out.Chunks != len(sections) {
		t.Fatalf("document has %d chunks, want one per section (%d)", out.Chunks, len(sections))
	}
	svc := &ask.Service{Searcher: &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}, Answerer: answer.New(nil)}
	res, err := svc.Ask(ctx, tn, search.Request{Query: "Which program is the quokkadump snapshot tool?", TopK: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Sources) != 1 {
		t.Fatalf("refused=%v with %d sources; want an answer from one source", res.Refused, len(res.Sources))
	}
	src := res.Sources[0]
	for i, want := range []bool{true, true, true, false} {
		first := strings.SplitN(strings.SplitN(sections[i], "\n\n", 2)[1], ".", 2)[0]
		if got := strings.Contains(src.Content, first); got != want {
			t.Errorf("source holds section %d = %v, want %v (the chunk and its two neighbours):\n%s", i, got, want, src.Content)
		}
	}
	var body string
	err = store.InTenant(ctx, pool, tt.ID, func(tx pgx.Tx) error {
		var err error
		body, err = store.New().GetDocumentBody(ctx, tx, store.GetDocumentBodyParams{TenantID: tt.ID, ID: out.DocumentID})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if src.StartOffset < 0 || src.EndOffset > len(body) || body[src.StartOffset:src.EndOffset] != src.Content {
		t.Errorf("source offsets [%d, %d) do not locate its content in the document body", src.StartOffset, src.EndOffset)
	}
	if !strings.Contains(res.Answer, "quokkadump") || len(res.Citations) != 1 || res.Citations[0].N != 1 || len(res.InvalidCitations) != 0 {
		t.Errorf("answer %q citations %+v invalid %v", res.Answer, res.Citations, res.InvalidCitations)
	}
	// The source names the three chunks its content spans, the retrieved
	// one among them, and a citation's chunks are among them (h-user38
	// could not join a citation's chunk_id to any source's).
	if len(src.ChunkIDs) != 3 || !slices.Contains(src.ChunkIDs, src.ChunkID) {
		t.Errorf("source chunk_ids %v (chunk_id %s); want the three chunks it spans", src.ChunkIDs, src.ChunkID)
	}
	for _, c := range res.Citations {
		for _, id := range c.ChunkIDs {
			if !slices.Contains(src.ChunkIDs, id) {
				t.Errorf("citation chunk %s is not among the source's chunk_ids %v", id, src.ChunkIDs)
			}
		}
	}
}

// A tenant cannot read another tenant's text through the neighbourhood query,
// even with the other tenant's chunk ids in hand.
func TestChunkNeighbourhoodsStayInTheTenant(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.App(t)
	a, b := testdb.NewTenant(t, "ask-nb-a", ""), testdb.NewTenant(t, "ask-nb-b", "")
	ta, err := tenant.Load(ctx, pool, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embed.NewLocal(embed.DefaultModelDir(os.Getenv))
	if err != nil {
		t.Fatalf("local model: %v (run make setup)", err)
	}
	p, err := ingest.New(pool, emb, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Upsert(ctx, ta, ingest.Document{SourceURI: "https://docs.test/secret", ContentType: "text/plain",
		Content: []byte("The vault combination of tenant A is 7319.")}); err != nil {
		t.Fatal(err)
	}
	svc := &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}
	res, err := svc.Search(ctx, ta, search.Request{Query: "vault combination", TopK: 1})
	if err != nil || len(res.Results) != 1 {
		t.Fatalf("tenant A's own search: %v, %d results", err, len(res.Results))
	}
	id := res.Results[0].ChunkID
	count := func(tn testdb.Tenant, asTenant testdb.Tenant) int {
		var rows []store.ChunkNeighbourhoodsRow
		err := store.InTenant(ctx, pool, asTenant.ID, func(tx pgx.Tx) error {
			var err error
			rows, err = store.New().ChunkNeighbourhoods(ctx, tx, store.ChunkNeighbourhoodsParams{TenantID: tn.ID, ChunkIds: []uuid.UUID{id}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	if n := count(a, a); n != 1 {
		t.Fatalf("tenant A reads %d neighbourhoods of its own chunk, want 1", n)
	}
	if n := count(b, b); n != 0 {
		t.Errorf("tenant B reads %d neighbourhoods of tenant A's chunk, want 0", n)
	}
	if n := count(a, b); n != 0 {
		t.Errorf("tenant B, passing tenant A's id, reads %d neighbourhoods, want 0 (row-level security)", n)
	}
}

// A result whose chunk lies inside an earlier source's neighbourhood (the
// next chunk of the same page) is not a source of its own: quoted as two
// sources of overlapping text, it padded every other answer of a
// fresh-user trial.
func TestAskDropsSourcesInsideAnEarlierNeighbourhood(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := smallChunkTenant(t, "ask-overlap")
	sections := []string{
		"## Overview\n\nSeveral approaches exist for keeping copies of your data. Each has its own strengths and weaknesses.",
		"## Snapshots\n\nThe quokkadump program writes a snapshot file of commands that recreate the whole database.",
		"## Snapshot options\n\nThe quokkadump program compresses the snapshot file when asked, and can write one file per table.",
		"## Archives\n\nContinuous archiving keeps every change in a log. Restoring replays the log onto a base copy.",
	}
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/backup", ContentType: "text/markdown",
		Content: []byte("# Backup\n\n" + strings.Join(sections, "\n\n"))}); err != nil {
		t.Fatal(err)
	}
	svc := &ask.Service{Searcher: &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}, Answerer: answer.New(nil)}
	sr, err := svc.Searcher.Search(ctx, tn, search.Request{Query: "What does the quokkadump program write to the snapshot file?", TopK: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Results) < 2 || !strings.Contains(sr.Results[0].Content+sr.Results[1].Content, "compresses") {
		t.Fatalf("the two quokkadump chunks are not the first two results: the case tests nothing")
	}
	res, err := svc.Ask(ctx, tn, search.Request{Query: "What does the quokkadump program write to the snapshot file?", TopK: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Sources {
		for j := i + 1; j < len(res.Sources); j++ {
			a, b := res.Sources[i], res.Sources[j]
			if a.DocumentID == b.DocumentID && strings.Contains(a.Content, "compresses the snapshot") && strings.Contains(b.Content, "compresses the snapshot") {
				t.Errorf("sources [%d] and [%d] both quote the same chunk of %s", a.N, b.N, a.SourceURI)
			}
		}
	}
}

// smallChunkTenant is a new tenant with the local model and a pipeline
// that cuts a chunk of about 20 words, so that each short section of a
// test document is a chunk of its own.
func smallChunkTenant(t *testing.T, name string) (*pgxpool.Pool, testdb.Tenant, tenant.Tenant, embed.Embedder, *ingest.Pipeline) {
	t.Helper()
	cfg := chunk.DefaultConfig()
	cfg.TargetTokens, cfg.MaxTokens, cfg.MinTokens, cfg.OverlapTokens = 20, 30, 5, 0
	return chunkTenant(t, name, cfg)
}

// chunkTenant is a new tenant of the application pool, the local model
// and a pipeline chunking with cfg.
func chunkTenant(t *testing.T, name string, cfg chunk.Config) (*pgxpool.Pool, testdb.Tenant, tenant.Tenant, embed.Embedder, *ingest.Pipeline) {
	t.Helper()
	pool := testdb.App(t)
	tt := testdb.NewTenant(t, name, "")
	tn, err := tenant.Load(context.Background(), pool, tt.ID)
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embed.NewLocal(embed.DefaultModelDir(os.Getenv))
	if err != nil {
		t.Fatalf("local model: %v (run make setup)", err)
	}
	p, err := ingest.New(pool, emb, 1, ingest.WithChunkConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return pool, tt, tn, emb, p
}

// TestAskDoesNotWidenIntoAnotherEntry (h-trial20): a source is not widened
// into a sibling section headed by its own words, another topic (the FAQ
// entry before the one retrieved): the answer quoted that entry's last
// sentence under its heading for the most common error of the trial's
// corpus. A subsection's parent intro and a following subsection of the
// retrieved section still join.
func TestAskDoesNotWidenIntoAnotherEntry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := smallChunkTenant(t, "ask-entries")
	doc := "# Frequent problems\n\n" +
		"## Sessions\n\nThe entries below are about sessions and the objects they load.\n\n" +
		"### Why is my lazy quokka attribute stale\n\nThe quokka attribute keeps the value it had when the row was loaded. Expire the object to read it again.\n\n" +
		"### Quokka instance is not bound to a session\n\nThe quokka instance was detached when its session closed. Keep the session open while the object is used.\n\n" +
		"#### Detached quokka objects in templates\n\nA template that reads a detached quokka loads nothing more. Load what it needs before closing.\n"
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/faq", ContentType: "text/markdown", Content: []byte(doc)}); err != nil {
		t.Fatal(err)
	}
	svc := &ask.Service{Searcher: &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}, Answerer: answer.New(nil)}
	res, err := svc.Ask(ctx, tn, search.Request{Query: "Quokka instance is not bound to a session", TopK: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Sources) != 1 || !strings.Contains(res.Sources[0].Content, "was detached when its session closed") {
		t.Fatalf("refused=%v, sources %+v; want the entry's chunk as the one source", res.Refused, res.Sources)
	}
	src := res.Sources[0].Content
	if strings.Contains(src, "Expire the object") {
		t.Errorf("the source holds the previous entry's text, a sibling section of another topic:\n%s", src)
	}
	if !strings.Contains(src, "A template that reads a detached quokka") {
		t.Errorf("the source lacks the entry's own subsection, which follows it:\n%s", src)
	}
	if strings.Contains(res.Answer, "Expire the object") {
		t.Errorf("the answer quotes the previous entry: %s", res.Answer)
	}
}
