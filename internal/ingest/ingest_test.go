package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

var (
	embOnce sync.Once
	emb     embed.Embedder
	embErr  error
)

// countingEmbedder counts the texts sent to the model.
type countingEmbedder struct {
	embed.Embedder
	mu    sync.Mutex
	texts int
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	c.texts += len(texts)
	c.mu.Unlock()
	return c.Embedder.Embed(ctx, texts)
}

func setup(t *testing.T) (*ingest.Pipeline, *countingEmbedder, tenant.Tenant) {
	t.Helper()
	embOnce.Do(func() { emb, embErr = embed.NewLocal(embed.DefaultModelDir(os.Getenv)) })
	if embErr != nil {
		t.Fatalf("local model: %v (run `make setup`)", embErr)
	}
	pool := testdb.App(t)
	ce := &countingEmbedder{Embedder: emb}
	p, err := ingest.New(pool, ce, 1)
	if err != nil {
		t.Fatal(err)
	}
	tn := testdb.NewTenant(t, "ingest", "")
	tt, err := tenant.Load(context.Background(), pool, tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	return p, ce, tt
}

// consistency checks that the BM25 statistics equal what the chunks hold and
// that no row is orphaned; it returns the number of documents and chunks.
func consistency(t *testing.T, tn tenant.Tenant) (docs, chunks int) {
	t.Helper()
	ctx := context.Background()
	err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		checks := map[string]string{
			"chunk_count matches chunks": `SELECT (SELECT coalesce(max(chunk_count), 0) FROM tenant_stats) = (SELECT count(*) FROM chunks)`,
			"token_count matches chunks": `SELECT (SELECT coalesce(max(token_count), 0) FROM tenant_stats) = (SELECT coalesce(sum(tsv_length(tsv)), 0) FROM chunks)`,
			"df matches postings": `SELECT NOT EXISTS (SELECT 1 FROM term_stats t FULL JOIN (SELECT lexeme, count(*) c FROM postings GROUP BY lexeme) p USING (lexeme)
				WHERE t.df IS DISTINCT FROM p.c)`,
			"postings match chunk lexemes": `SELECT (SELECT count(*) FROM postings) = (SELECT coalesce(sum(length(tsv)), 0) FROM chunks)`,
			"no orphan postings":           `SELECT NOT EXISTS (SELECT 1 FROM postings p WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = p.chunk_id))`,
			"every chunk has an embedding": `SELECT NOT EXISTS (SELECT 1 FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id))`,
			"chunk_count per document":     `SELECT NOT EXISTS (SELECT 1 FROM documents d WHERE d.chunk_count <> (SELECT count(*) FROM chunks c WHERE c.document_id = d.id))`,
		}
		for name, sql := range checks {
			var ok bool
			if err := tx.QueryRow(ctx, sql).Scan(&ok); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if !ok {
				t.Errorf("consistency: %s is false", name)
			}
		}
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM documents").Scan(&docs); err != nil {
			return err
		}
		return tx.QueryRow(ctx, "SELECT count(*) FROM chunks").Scan(&chunks)
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs, chunks
}

func markdown(sections int, word string) []byte {
	var b strings.Builder
	b.WriteString("# Guide\n\n")
	for i := range sections {
		fmt.Fprintf(&b, "## Section %d\n\n", i)
		for j := range 40 {
			fmt.Fprintf(&b, "Sentence %d about %s number %d in section %d. ", j, word, j*i, i)
		}
		b.WriteString("\n\n")
	}
	return []byte(b.String())
}

func TestUpsertIdempotentAndReplacesAtomically(t *testing.T) {
	t.Parallel()
	p, ce, tn := setup(t)
	ctx := context.Background()
	doc := ingest.Document{SourceURI: "docs://guide", ContentType: "text/markdown", Content: markdown(6, "alpha")}
	out, err := p.Upsert(ctx, tn, doc)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != ingest.StatusAdded || out.Chunks < 3 || out.Embedded != out.Chunks {
		t.Fatalf("first upsert: %+v, want added with ≥3 chunks all embedded", out)
	}
	first := out.Chunks
	before := ce.texts
	again, err := p.Upsert(ctx, tn, doc)
	if err != nil {
		t.Fatal(err)
	}
	if again.Status != ingest.StatusUnchanged || again.DocumentID != out.DocumentID || ce.texts != before {
		t.Fatalf("second upsert: %+v, embedded %d texts; want unchanged, same id, no embedding", again, ce.texts-before)
	}
	// Shrink: fewer sections → fewer chunks, nothing stranded; the unchanged
	// sections' texts come from the embedding cache.
	doc.Content = markdown(2, "alpha")
	upd, err := p.Upsert(ctx, tn, doc)
	if err != nil {
		t.Fatal(err)
	}
	if upd.Status != ingest.StatusUpdated || upd.Chunks >= first || upd.DocumentID != out.DocumentID {
		t.Fatalf("shrinking upsert: %+v (first had %d chunks)", upd, first)
	}
	if upd.Embedded >= upd.Chunks {
		t.Errorf("shrinking upsert embedded %d of %d chunks; unchanged chunk texts should come from the cache", upd.Embedded, upd.Chunks)
	}
	docs, chunks := consistency(t, tn)
	if docs != 1 || chunks != upd.Chunks {
		t.Fatalf("after update: %d documents, %d chunks; want 1 and %d", docs, chunks, upd.Chunks)
	}
	// Delete by source_uri cascades to chunks, embeddings and statistics.
	if _, err := p.DeleteBySourceURI(ctx, tn, "docs://guide"); err != nil {
		t.Fatal(err)
	}
	if docs, chunks := consistency(t, tn); docs != 0 || chunks != 0 {
		t.Fatalf("after delete: %d documents, %d chunks", docs, chunks)
	}
	if _, err := p.Delete(ctx, tn, out.DocumentID); !errors.Is(err, ingest.ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
}

func TestBadInputStoresNothing(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	cases := []struct {
		name string
		doc  ingest.Document
		want error
	}{
		{"unsupported type", ingest.Document{SourceURI: "x://a", ContentType: "application/msword", Content: []byte("\xd0\xcf\x11\xe0")}, extract.ErrUnsupportedType},
		{"damaged pdf", ingest.Document{SourceURI: "x://b.pdf", ContentType: "application/pdf", Content: []byte("%PDF-1.4")}, extract.ErrUnreadable},
		{"invalid utf-8", ingest.Document{SourceURI: "x://b", ContentType: "text/plain", Content: []byte("caf\xe9 au lait")}, extract.ErrInvalidUTF8},
		{"binary", ingest.Document{SourceURI: "x://c", ContentType: "text/plain", Content: []byte("ab\x00cd\x00\x01\x02")}, extract.ErrBinary},
		{"empty", ingest.Document{SourceURI: "x://d", ContentType: "text/html", Content: []byte("<html><body>  </body></html>")}, extract.ErrEmpty},
		{"no source_uri", ingest.Document{ContentType: "text/plain", Content: []byte("hello")}, ingest.ErrInvalidSourceURI},
		{"control in source_uri", ingest.Document{SourceURI: "x://e\n", ContentType: "text/plain", Content: []byte("hello")}, ingest.ErrInvalidSourceURI},
		{"too large", ingest.Document{SourceURI: "x://f", ContentType: "text/plain", Content: make([]byte, ingest.DefaultMaxBytes+1)}, ingest.ErrTooLarge},
	}
	for _, c := range cases {
		if _, err := p.Upsert(ctx, tn, c.doc); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	if docs, chunks := consistency(t, tn); docs != 0 || chunks != 0 {
		t.Fatalf("bad input stored %d documents, %d chunks", docs, chunks)
	}
}

func TestIngestFilesEditPruneAndTraversal(t *testing.T) {
	t.Parallel()
	p, ce, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	outside := t.TempDir()
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 4 {
		write(root, fmt.Sprintf("page%d.md", i), fmt.Sprintf("# Page %d\n\nText of page %d about topic %d.\n", i, i, i))
	}
	write(root, "notes.txt", "Plain notes about nothing in particular.")
	write(root, "image.png", "\x89PNG\x00\x00")
	write(outside, "secret.md", "# Secret\n\nOutside the root.")
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	walk := func() []ingest.File {
		files, fails, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://example.test/docs", Exclude: []string{"notes.*"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(fails) != 1 || !strings.Contains(fails[0].Reason, "leaves the ingested directory") || fails[0].Kind != ingest.KindSkipped {
			t.Fatalf("walk failures = %+v, want the escaping symlink", fails)
		}
		return files
	}
	files := walk()
	if len(files) != 4 {
		t.Fatalf("walk found %d files, want the 4 pages (notes excluded, png unsupported, link refused): %+v", len(files), files)
	}
	prune := ingest.Prune{Prefix: "https://example.test/docs/", Roots: []string{root}}
	sum, err := p.IngestFiles(ctx, tn, files, 2, prune, nil)
	if err != nil || sum.Added != 4 || sum.Failed != 0 {
		t.Fatalf("first run: %+v, %v", sum, err)
	}
	// The notes, ingested by a run of their own, are left out of the runs
	// that prune (Exclude), but their file is not gone: they stay.
	notes, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://example.test/docs", Include: []string{"notes.txt"}})
	if err != nil || len(notes) != 1 {
		t.Fatalf("notes: %+v, %v", notes, err)
	}
	if sum, err := p.IngestFiles(ctx, tn, notes, 1, ingest.Prune{}, nil); err != nil || sum.Added != 1 {
		t.Fatalf("notes run: %+v, %v", sum, err)
	}
	write(root, "page1.md", "# Page 1\n\nEdited text of page one.\n")
	if err := os.Remove(filepath.Join(root, "page3.md")); err != nil {
		t.Fatal(err)
	}
	before := ce.texts
	sum, err = p.IngestFiles(ctx, tn, walk(), 2, prune, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Updated != 1 || sum.Unchanged != 2 || sum.Deleted != 1 || sum.Added != 0 || sum.Failed != 0 {
		t.Fatalf("second run: %+v; want 1 updated, 2 unchanged, 1 deleted", sum)
	}
	if want := []string{"https://example.test/docs/page3.md"}; !slices.Equal(sum.DeletedDocuments, want) {
		t.Fatalf("deleted documents %q, want %q", sum.DeletedDocuments, want)
	}
	if got := ce.texts - before; got != sum.Embedded || got == 0 || got > 2 {
		t.Fatalf("second run embedded %d texts (summary says %d); only the edited page should be embedded", got, sum.Embedded)
	}
	if docs, _ := consistency(t, tn); docs != 4 {
		t.Fatalf("%d documents after prune, want 4 (three pages and the notes)", docs)
	}
}

func TestConcurrentUpsertsOfOneSource(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "same://doc", ContentType: "text/plain",
				Content: []byte(fmt.Sprintf("Version %d of the shared document.\n\nIt has two paragraphs, version %d.", i, i))})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if docs, _ := consistency(t, tn); docs != 1 {
		t.Fatalf("%d documents after concurrent upserts of one source_uri, want 1", docs)
	}
}

// TestCJKIndexedAsBigrams: a Chinese page with a Latin word and an
// identifier glued to its characters is stored with the bigrams and the
// separated words in its keyword index, in the english and the simple
// configuration alike; and a document stored by an older pipeline (another
// keyword analysis) is re-chunked on the next ingest, its embeddings coming
// from the cache.
func TestCJKIndexedAsBigrams(t *testing.T) {
	t.Parallel()
	for _, cfg := range []string{"english", "simple"} {
		t.Run(cfg, func(t *testing.T) {
			t.Parallel()
			p, ce, _ := setup(t)
			ctx := context.Background()
			pool := testdb.App(t)
			tn, err := tenant.Load(ctx, pool, testdb.NewTenant(t, "cjk", cfg).ID)
			if err != nil {
				t.Fatal(err)
			}
			doc := ingest.Document{SourceURI: "zh/pool.md", ContentType: "text/markdown",
				Content: []byte("# 连接池\n\nPostgreSQL的连接池复用已经建立的连接。pg_stat_activity表记录每个会话。")}
			if _, err := p.Upsert(ctx, tn, doc); err != nil {
				t.Fatal(err)
			}
			lexemes := func() map[string]bool {
				got := map[string]bool{}
				err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
					rows, err := tx.Query(ctx, "SELECT DISTINCT u.lexeme FROM chunks c, unnest(c.tsv) u")
					if err != nil {
						return err
					}
					lx, err := pgx.CollectRows(rows, pgx.RowTo[string])
					for _, l := range lx {
						got[l] = true
					}
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			got := lexemes()
			for _, want := range []string{"连接", "接池", "复用", "postgresql", "pg", "stat", "表记", "会话"} {
				if !got[want] {
					t.Errorf("lexeme %q missing from %v", want, got)
				}
			}
			activity, compound := "activ", "pgstatact"
			if cfg == "simple" {
				activity, compound = "activity", "pgstatactivity"
			}
			if !got[activity] || !got[compound] {
				t.Errorf("lexemes %q, %q missing from %v", activity, compound, got)
			}
			consistency(t, tn)
			chunkIDs := func() (ids []string) {
				err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
					rows, err := tx.Query(ctx, "SELECT id::text FROM chunks ORDER BY chunk_index")
					if err != nil {
						return err
					}
					ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return ids
			}
			old := chunkIDs()

			// As if stored by an earlier version of the analysis.
			err = store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
				_, err := tx.Exec(ctx, "UPDATE documents SET pipeline = replace(pipeline, 'keywords=', 'keywords=older-') WHERE source_uri = $1", doc.SourceURI)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			before := ce.texts
			out, err := p.Upsert(ctx, tn, doc)
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != ingest.StatusUpdated || out.Embedded != 0 || ce.texts != before {
				t.Errorf("re-ingest after an analysis change: %+v (%d texts embedded); want updated from the embedding cache", out, ce.texts-before)
			}
			again, err := p.Upsert(ctx, tn, doc)
			if err != nil || again.Status != ingest.StatusUnchanged {
				t.Errorf("third ingest: %+v %v, want unchanged", again, err)
			}
			if ids := chunkIDs(); len(ids) == 0 || slices.Equal(ids, old) {
				t.Errorf("chunks %v after re-ingest, before %v: want new chunks", ids, old)
			}
			if got := lexemes(); !got["连接"] {
				t.Errorf("after re-chunking: lexemes %v", got)
			}
			consistency(t, tn)
		})
	}
}

// TestIngestFilesWithMetadata: files walked with metadata are stored with
// it (what search's metadata filter selects), a re-ingest with other
// metadata updates the documents, and an unchanged one skips them.
func TestIngestFilesWithMetadata(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	for i := range 2 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("p%d.md", i)), []byte(fmt.Sprintf("# P%d\n\nText %d.\n", i, i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ingestWith := func(meta map[string]any) ingest.Summary {
		files, fails, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://example.test/m", Metadata: meta})
		if err != nil || len(fails) != 0 || len(files) != 2 {
			t.Fatalf("walk: %d files, %v, %v", len(files), fails, err)
		}
		sum, err := p.IngestFiles(ctx, tn, files, 1, ingest.Prune{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	stored := func() []string {
		var out []string
		err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `SELECT metadata::text FROM documents WHERE tenant_id = $1 ORDER BY source_uri`, tn.ID)
			if err != nil {
				return err
			}
			out, err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if sum := ingestWith(map[string]any{"product": "console"}); sum.Added != 2 {
		t.Fatalf("first ingest: %+v", sum)
	}
	if got := stored(); len(got) != 2 || got[0] != `{"product": "console"}` || got[1] != got[0] {
		t.Fatalf("stored metadata %q", got)
	}
	if sum := ingestWith(map[string]any{"product": "console"}); sum.Unchanged != 2 {
		t.Errorf("same metadata again: %+v, want both unchanged", sum)
	}
	if sum := ingestWith(map[string]any{"product": "cli"}); sum.Updated != 2 {
		t.Errorf("other metadata: %+v, want both updated", sum)
	}
	if got := stored(); got[0] != `{"product": "cli"}` {
		t.Errorf("stored metadata after the update %q", got)
	}
}

// TestWalkReportsANamedUnsupportedFile: a file named on the command line
// that ragd cannot ingest is a failure with the reason, not a silent
// "0 files"; inside a directory such files are skipped quietly.
func TestWalkReportsANamedUnsupportedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	odt := filepath.Join(dir, "contract.odt")
	if err := os.WriteFile(odt, []byte("PK\x03\x04"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, fails, err := ingest.Walk([]string{odt}, ingest.WalkOptions{})
	if err != nil || len(files) != 0 || len(fails) != 1 || fails[0].Path != odt || !strings.Contains(fails[0].Reason, "unsupported") {
		t.Errorf("named ODT: files %v, failures %+v, %v; want one failure saying it is unsupported", files, fails, err)
	}
	files, fails, err = ingest.Walk([]string{dir}, ingest.WalkOptions{})
	if err != nil || len(files) != 0 || len(fails) != 0 {
		t.Errorf("directory holding only an ODT file: files %v, failures %+v, %v; want nothing", files, fails, err)
	}
	// PDF and DOCX files are ingested, by their extension.
	for _, name := range []string{"manual.pdf", "report.docx"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, _, err = ingest.Walk([]string{dir}, ingest.WalkOptions{})
	if err != nil || len(files) != 2 || files[0].ContentType != extract.TypePDF || files[1].ContentType != extract.TypeDOCX {
		t.Errorf("directory with a PDF and a DOCX file: %+v, %v", files, err)
	}
}

// TestWalkRefusesTwoFilesForOneSourceURI: two roots under one base URI,
// each with an index.md, would store one document and silently lose the
// other: Walk refuses the run, naming both paths and the source_uri. One
// file reached twice (a root named twice, a file and its directory) is
// listed once; without a base URI each file has its own file:// URI.
func TestWalkRefusesTwoFilesForOneSourceURI(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := os.WriteFile(filepath.Join(dir, "index.md"), []byte("# Index of "+dir), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(a, "only-a.md"), []byte("# A"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := ingest.WalkOptions{BaseURI: "https://x.test/"}
	files, _, err := ingest.Walk([]string{a, b}, o)
	if !errors.Is(err, ingest.ErrSourceURICollision) || files != nil {
		t.Fatalf("two index.md under one base URI: files %v, err %v; want ErrSourceURICollision", files, err)
	}
	for _, part := range []string{filepath.Join(a, "index.md"), filepath.Join(b, "index.md"), "https://x.test/index.md"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("the error does not name %s: %v", part, err)
		}
	}
	for _, paths := range [][]string{{a, a}, {a, filepath.Join(a, "index.md")}} {
		files, _, err = ingest.Walk(paths, o)
		if err != nil || len(files) != 2 {
			t.Errorf("%v: files %v, err %v; want index.md and only-a.md once each", paths, files, err)
		}
	}
	if files, _, err = ingest.Walk([]string{a, b}, ingest.WalkOptions{}); err != nil || len(files) != 3 {
		t.Errorf("without a base URI: files %v, err %v; want 3", files, err)
	}
}

// TestWalkLeavesOutSphinxSources: a Sphinx HTML build holds the
// reStructuredText of every page again under _sources/ (as .txt files);
// ingested, each page would be in the tenant twice. Walk leaves the
// directory out with one line saying why, unless --include asks for files;
// a _sources directory that is not a Sphinx build's is ingested.
func TestWalkLeavesOutSphinxSources(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"html/searchindex.js":         "Search.setIndex({})",
		"html/intro.html":             "<h1>Intro</h1><p>Hello.</p>",
		"html/_sources/intro.rst.txt": "Intro\n=====\n\nHello.\n",
		"notes/_sources/reading.txt":  "Books to read.",
	})
	files, fails, err := ingest.Walk([]string{dir}, ingest.WalkOptions{})
	var got []string
	for _, f := range files {
		got = append(got, strings.TrimPrefix(f.Path, dir+"/"))
	}
	if err != nil || !slices.Equal(got, []string{"html/intro.html", "notes/_sources/reading.txt"}) ||
		len(fails) != 1 || fails[0].Path != filepath.Join(dir, "html/_sources") || fails[0].Kind != ingest.KindSkipped {
		t.Errorf("Sphinx build: files %q, failures %+v, %v; want the page, the other _sources file and one skipped directory", got, fails, err)
	}
	files, _, err = ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"**/*.txt"}})
	if err != nil || len(files) != 2 {
		t.Errorf("--include '**/*.txt': %d files, %v; want both .txt files", len(files), err)
	}
}

// TestWalkLeavesOutSphinxIndexPages: a Sphinx HTML build's general index,
// module index and search page are generated navigation, not documents:
// Walk leaves them out, one line each saying why, unless --include names
// them (a glob of every page, "**/*.html", does not: a fresh user's
// manifest of "*.html" took in 156 of them); a page of the same name
// outside a Sphinx build is a document.
func TestWalkLeavesOutSphinxIndexPages(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"html/searchindex.js":    "Search.setIndex({})",
		"html/intro.html":        "<h1>Intro</h1><p>Hello.</p>",
		"html/genindex.html":     "<h1>Index</h1><p>intro() (in module quokka)</p>",
		"html/genindex-A.html":   "<h1>Index – A</h1><p>apply() (in module quokka)</p>",
		"html/py-modindex.html":  "<h1>Python Module Index</h1><p>quokka</p>",
		"html/search.html":       "<h1>Search</h1><p>Please activate JavaScript to enable the search functionality.</p>",
		"site/search.html":       "<h1>How we search</h1><p>Our search team reads every ticket.</p>",
		"html/sub/genindex.html": "<h1>Glossary index</h1><p>A page of its own, outside the build's root.</p>",
	})
	got, skipped, err := walkDefault(dir)
	if err != nil || !slices.Equal(got, []string{"html/intro.html", "html/sub/genindex.html", "site/search.html"}) ||
		!slices.Equal(skipped, []string{"html/genindex-A.html", "html/genindex.html", "html/py-modindex.html", "html/search.html"}) {
		t.Errorf("Sphinx build: files %q, skipped %q, %v", got, skipped, err)
	}
	files, fails, err := ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"**/*.html"}})
	if err != nil || len(files) != 3 || len(fails) != 4 {
		t.Errorf("--include '**/*.html': %d files, %d skipped, %v; want the 3 documents, the 4 generated pages skipped", len(files), len(fails), err)
	}
	files, _, err = ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"**/*.html", "html/genindex*.html", "**/search.html"}})
	if err != nil || len(files) != 6 {
		t.Errorf("--include naming the indexes and search pages: %d files, %v; want 6 (py-modindex.html still left out)", len(files), err)
	}
}

// TestWalkLeavesOutNotFoundAndMkDocsPages: a Sphinx build's 404.html,
// _modules/ (the viewcode extension's highlighted sources) and _static/
// (its assets: Scrapy's sample page for its tutorial), and an MkDocs
// build's search, sitemap and 404 pages (search/search_index.json beside
// them) are generated pages, not documents: a trial's tenant had stored
// Flask's "Page Not Found" as a document, another Tornado's module
// sources as 61% of its chunks; and a build's robots.txt. The same names
// outside such a build are documents.
func TestWalkLeavesOutNotFoundAndMkDocsPages(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"sphinx/searchindex.js":           "Search.setIndex({})",
		"sphinx/intro.html":               "<h1>Intro</h1><p>Hello.</p>",
		"sphinx/404.html":                 "<h1>Page Not Found</h1><p>The page you requested does not exist.</p>",
		"sphinx/robots.txt":               "User-agent: *\nDisallow: /",
		"plain/robots.txt":                "Robots in our lab: the arm, the rover.",
		"mkdocs/search/search_index.json": `{"docs": []}`,
		"mkdocs/index.html":               "<h1>Home</h1><p>Welcome.</p>",
		"mkdocs/404.html":                 "<h1>404</h1><p>Page not found</p>",
		"mkdocs/search.html":              "<h1>Search</h1><p>Search results</p>",
		"mkdocs/sitemap.html":             "<h1>Sitemap</h1><p>index install</p>",
		"plain/404.html":                  "<h1>Error 404 explained</h1><p>What a 404 status means for your users.</p>",
		"sphinx/_modules/pkg/mod.html":    "<h1>Source code for pkg.mod</h1><pre>def f(): pass</pre>",
		"plain/_modules/notes.html":       "<h1>Module notes</h1><p>Our course modules, term by term.</p>",
		"sphinx/_static/sample1.html":     "<html><body><a href='image1.html'>Name: My image 1</a></body></html>",
		"plain/_static/about.html":        "<h1>About our static site</h1><p>Built by hand.</p>",
	})
	got, skipped, err := walkDefault(dir)
	if err != nil || !slices.Equal(got, []string{"mkdocs/index.html", "plain/404.html", "plain/_modules/notes.html", "plain/_static/about.html", "plain/robots.txt", "sphinx/intro.html"}) ||
		!slices.Equal(skipped, []string{"mkdocs/404.html", "mkdocs/search.html", "mkdocs/sitemap.html", "sphinx/404.html", "sphinx/_modules", "sphinx/_static", "sphinx/robots.txt"}) {
		t.Errorf("files %q, skipped %q, %v", got, skipped, err)
	}
}

// relPaths returns the files' paths relative to dir, sorted.
func relPaths(dir string, files []ingest.File) []string {
	var got []string
	for _, f := range files {
		got = append(got, strings.TrimPrefix(f.Path, dir+"/"))
	}
	slices.Sort(got)
	return got
}

// walkDefault walks dir with the default options and returns the files it
// keeps and those it skips, relative to dir and sorted.
func walkDefault(dir string) (got, skipped []string, err error) {
	files, fails, err := ingest.Walk([]string{dir}, ingest.WalkOptions{})
	got = relPaths(dir, files)
	for _, f := range fails {
		if f.Kind == ingest.KindSkipped {
			skipped = append(skipped, strings.TrimPrefix(f.Path, dir+"/"))
		}
	}
	slices.Sort(got)
	slices.Sort(skipped)
	return got, skipped, err
}

// TestWalkExcludeNamesDirectories: an --exclude glob that names a
// directory ("_modules/*" for the folders it holds, "**/build") leaves out
// everything under it, not only the files directly in it; the files left
// out are counted so the run can say so. Files no glob names stay.
func TestWalkExcludeNamesDirectories(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, rel := range []string{
		"index.html", "guide/intro.html",
		"_modules/top.html", "_modules/pkg/a.html", "_modules/pkg/sub/b.html", "_modules/pkg/logo.png",
		"guide/build/out.html", "build/c.html",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("<p>x</p>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rels := func(files []ingest.File) []string {
		var out []string
		for _, f := range files {
			r, _ := filepath.Rel(root, f.Path)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		exclude  []string
		want     []string
		excluded int
	}{
		{[]string{"_modules/*"}, []string{"build/c.html", "guide/build/out.html", "guide/intro.html", "index.html"}, 3},
		{[]string{"**/build"}, []string{"_modules/pkg/a.html", "_modules/pkg/sub/b.html", "_modules/top.html", "guide/intro.html", "index.html"}, 2},
		{[]string{"*.html"}, nil, 7},
		{nil, []string{"_modules/pkg/a.html", "_modules/pkg/sub/b.html", "_modules/top.html", "build/c.html", "guide/build/out.html", "guide/intro.html", "index.html"}, 0},
	} {
		n := 0
		files, fails, err := ingest.Walk([]string{root}, ingest.WalkOptions{Exclude: c.exclude, Excluded: &n})
		if err != nil || len(fails) != 0 {
			t.Fatalf("exclude %q: %v, failures %+v", c.exclude, err, fails)
		}
		if got := rels(files); !slices.Equal(got, c.want) || n != c.excluded {
			t.Errorf("exclude %q: files %q, %d excluded; want %q, %d", c.exclude, got, n, c.want, c.excluded)
		}
	}
}

// TestWalkLeavesOutLinksToListedFiles: a symbolic link to a file the walk
// lists under its own name is the same document twice (graphviz-doc links
// circo.1.pdf.gz, fdp.1.pdf.gz, … to dot.1.pdf.gz: six copies of one
// manual filled a trial's top results); it is reported as skipped. A link
// to a file the walk leaves out (an --exclude) is the only way to that
// document and is listed.
func TestWalkLeavesOutLinksToListedFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, rel := range []string{"dot.1.md", "private/notes.md"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# "+rel+"\n\nText."), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"circo.1.md": "dot.1.md", "sub/fdp.1.md": "../dot.1.md", "notes.md": "private/notes.md"} {
		p := filepath.Join(root, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	files, fails, err := ingest.Walk([]string{root}, ingest.WalkOptions{Exclude: []string{"private"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		r, _ := filepath.Rel(root, f.Path)
		got = append(got, filepath.ToSlash(r))
	}
	slices.Sort(got)
	if want := []string{"dot.1.md", "notes.md"}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	skipped := map[string]string{}
	for _, f := range fails {
		r, _ := filepath.Rel(root, f.Path)
		if f.Kind == ingest.KindSkipped {
			skipped[filepath.ToSlash(r)] = f.Reason
		}
	}
	if len(skipped) != 2 || !strings.Contains(skipped["circo.1.md"], "dot.1.md") || !strings.Contains(skipped["sub/fdp.1.md"], "dot.1.md") {
		t.Errorf("skipped %q, want circo.1.md and sub/fdp.1.md as links to dot.1.md", skipped)
	}
}

// writeTree writes files (relative path → content) under a new temporary
// directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestWalkLeavesOutTheSourcesOfHTMLPages: a documentation build that ships
// its sources beside its pages (Debian's git-doc: git-add.txt, the AsciiDoc
// of git-add.html, and diff-options.txt, a part six pages include) would
// put every page in the tenant twice or more. Walk leaves the text files of
// such a directory out, one line for the directory, and --prune deletes
// their earlier documents (Linked); a lone text file beside an unrelated
// page, a directory of text files without pages, and --include are kept
// as they were.
func TestWalkLeavesOutTheSourcesOfHTMLPages(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"git/git-add.html":     "<h1>git-add(1)</h1><p>Add file contents to the index.</p>",
		"git/git-add.txt":      "git-add(1)\n==========\n\nAdd file contents to the index.\n",
		"git/git-diff.html":    "<h1>git-diff(1)</h1><p>Show changes.</p>",
		"git/git-diff.txt":     "git-diff(1)\n===========\n\nShow changes.\ninclude::diff-options.txt[]\n",
		"git/diff-options.txt": "--stat::\n\tGenerate a diffstat.\n",
		"site/README.md":       "# Tool\n\nHow to use the tool.\n",
		"site/README.html":     "<h1>Tool</h1><p>How to use the tool.</p>",
		"site/notes.txt":       "Meeting notes of the tool's team.",
		"site/changes.txt":     "Changes in release 2.",
		"site/index.html":      "<h1>Tool</h1><p>Start here.</p>",
		"text/a.txt":           "Plain notes, no pages here.",
		"text/b.md":            "# B\n\nMore notes.\n",
	})
	var linked []string
	files, fails, err := ingest.Walk([]string{dir}, ingest.WalkOptions{BaseURI: "https://docs.example/", Linked: &linked})
	got := relPaths(dir, files)
	var skipped []string
	for _, f := range fails {
		skipped = append(skipped, strings.TrimPrefix(f.Path, dir+"/")+": "+f.Reason)
	}
	want := []string{"git/git-add.html", "git/git-diff.html", "site/README.html", "site/changes.txt", "site/index.html", "site/notes.txt", "text/a.txt", "text/b.md"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("files %q, %v; want %q", got, err, want)
	}
	if len(skipped) != 2 || !strings.HasPrefix(skipped[0], "git: 3 text files: the sources of the HTML pages") ||
		!strings.HasPrefix(skipped[1], "site: 1 text file: the sources of the HTML pages") {
		t.Errorf("skipped %q; want one line for git/ (3 files) and one for site/ (README.md)", skipped)
	}
	slices.Sort(linked)
	wantLinked := []string{"https://docs.example/git/diff-options.txt", "https://docs.example/git/git-add.txt", "https://docs.example/git/git-diff.txt", "https://docs.example/site/README.md"}
	if !slices.Equal(linked, wantLinked) {
		t.Errorf("copies for --prune %q; want %q", linked, wantLinked)
	}
	files, fails, err = ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"git/*.txt"}})
	if err != nil || len(files) != 3 || len(fails) != 0 {
		t.Errorf("--include 'git/*.txt': %d files, failures %+v, %v; want the 3 text files", len(files), fails, err)
	}
}

// TestWalkLeavesOutDirhtmlIndexPages: Sphinx's dirhtml builder writes its
// index, module index and search page as genindex/index.html, … beside
// searchindex.js; Walk leaves them out as it does the html builder's, and
// an archive of the same tree does too (BuildFileSkip, one rule).
func TestWalkLeavesOutDirhtmlIndexPages(t *testing.T) {
	t.Parallel()
	tree := map[string]string{
		"html/searchindex.js":         "Search.setIndex({})",
		"html/usage/index.html":       "<h1>Usage</h1><p>Call validate().</p>",
		"html/genindex/index.html":    "<h1>Index</h1><p>validate() (in module schema)</p>",
		"html/py-modindex/index.html": "<h1>Python Module Index</h1><p>schema</p>",
		"html/search/index.html":      "<h1>Search</h1><p>Please activate JavaScript.</p>",
	}
	got, skipped, err := walkDefault(writeTree(t, tree))
	if err != nil || !slices.Equal(got, []string{"html/usage/index.html"}) ||
		!slices.Equal(skipped, []string{"html/genindex/index.html", "html/py-modindex/index.html", "html/search/index.html"}) {
		t.Errorf("dirhtml build: files %q, skipped %q, %v; want the usage page alone", got, skipped, err)
	}
	has := func(rel string) bool { _, ok := tree[rel]; return ok }
	for rel := range tree {
		if want := slices.Contains(skipped, rel); rel != "html/searchindex.js" && (ingest.BuildFileSkip(rel, has, func(r string) []byte { return []byte(tree[r]) }) != "") != want {
			t.Errorf("BuildFileSkip(%q) = %q; the walk skipped it: %v", rel, ingest.BuildFileSkip(rel, has, func(r string) []byte { return []byte(tree[r]) }), want)
		}
	}
}
