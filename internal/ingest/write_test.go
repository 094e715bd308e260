package ingest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// storedDoc is what a document write decides: content hash, title,
// content type, metadata and the chunks (heading path and content, in
// order).
type storedDoc struct {
	SHA         string
	Title       string
	ContentType string
	Metadata    map[string]any
	Chunks      string
}

func readDoc(t *testing.T, tn tenant.Tenant, uri string) (storedDoc, bool) {
	t.Helper()
	ctx := context.Background()
	var d storedDoc
	var meta []byte
	found := true
	err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT encode(d.content_sha, 'hex'), d.title, d.content_type, d.metadata,
			coalesce((SELECT string_agg(c.heading_path || E'\x1f' || c.content, E'\x1e' ORDER BY c.chunk_index) FROM chunks c
			          WHERE c.tenant_id = d.tenant_id AND c.document_id = d.id), '')
			FROM documents d WHERE d.tenant_id = $1 AND d.source_uri = $2`, tn.ID, uri).Scan(&d.SHA, &d.Title, &d.ContentType, &meta, &d.Chunks)
		if err == pgx.ErrNoRows {
			found = false
			return nil
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if found {
		if err := json.Unmarshal(meta, &d.Metadata); err != nil {
			t.Fatal(err)
		}
	}
	return d, found
}

func upsert(t *testing.T, p *ingest.Pipeline, tn tenant.Tenant, d ingest.Document) ingest.Outcome {
	t.Helper()
	out, err := p.Upsert(context.Background(), tn, d)
	if err != nil {
		t.Fatalf("upsert %s: %v", d.SourceURI, err)
	}
	return out
}

// TestUpdateChangesOnlyWhatItNames: metadata and a title set through the
// API survive an unchanged re-ingest of the file (reported unchanged), a
// re-PUT of identical content without them, and a content update without
// them; an empty metadata object clears it; a title nobody named follows
// the content.
func TestUpdateChangesOnlyWhatItNames(t *testing.T) {
	t.Parallel()
	p, ce, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	file := filepath.Join(root, "guide.md")
	if err := os.WriteFile(file, []byte("# Guide\n\nHow to install widgets.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ingestDir := func() ingest.Summary {
		files, fails, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://example.test/g"})
		if err != nil || len(fails) != 0 || len(files) != 1 {
			t.Fatalf("walk: %v %v %v", files, fails, err)
		}
		sum, err := p.IngestFiles(ctx, tn, files, 1, ingest.Prune{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	const uri = "https://example.test/g/guide.md"
	if sum := ingestDir(); sum.Added != 1 {
		t.Fatalf("first ingest: %+v", sum)
	}
	content, _ := os.ReadFile(file)
	meta := map[string]any{"team": "ops", "tier": float64(2)}
	if out := upsert(t, p, tn, ingest.Document{SourceURI: uri, Content: content, FromText: true, Metadata: meta, Title: "Ops guide"}); out.Status != ingest.StatusUpdated {
		t.Fatalf("metadata and title through the API: %+v, want updated", out)
	}
	before := ce.texts
	if sum := ingestDir(); sum.Unchanged != 1 || sum.Updated != 0 {
		t.Fatalf("unchanged re-ingest: %+v, want unchanged", sum)
	}
	if d, _ := readDoc(t, tn, uri); !reflect.DeepEqual(d.Metadata, meta) || d.Title != "Ops guide" {
		t.Fatalf("after an unchanged re-ingest: %+v, want metadata %v and title kept", d, meta)
	}
	if out := upsert(t, p, tn, ingest.Document{SourceURI: uri, Content: content, FromText: true}); out.Status != ingest.StatusUnchanged {
		t.Fatalf("re-PUT of identical content without metadata: %+v, want unchanged", out)
	}
	if ce.texts != before {
		t.Fatalf("unchanged writes embedded %d texts", ce.texts-before)
	}
	if d, _ := readDoc(t, tn, uri); !reflect.DeepEqual(d.Metadata, meta) || d.Title != "Ops guide" {
		t.Fatalf("after a re-PUT without metadata: %+v", d)
	}
	// New content, no metadata, no title: the content changes, the named
	// title and the metadata stay.
	if err := os.WriteFile(file, []byte("# Guide v2\n\nHow to install and remove widgets.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum := ingestDir(); sum.Updated != 1 {
		t.Fatalf("edited file: %+v, want updated", sum)
	}
	d, _ := readDoc(t, tn, uri)
	if !reflect.DeepEqual(d.Metadata, meta) || d.Title != "Ops guide" || d.SHA != ingest.ContentSHA([]byte("# Guide v2\n\nHow to install and remove widgets.\n")) {
		t.Fatalf("after a content update without metadata or title: %+v", d)
	}
	// An empty object clears (explicitly named), null/absent does not.
	content, _ = os.ReadFile(file)
	if out := upsert(t, p, tn, ingest.Document{SourceURI: uri, Content: content, FromText: true, Metadata: map[string]any{}}); out.Status != ingest.StatusUpdated {
		t.Fatalf("metadata {}: %+v, want updated", out)
	}
	if d, _ := readDoc(t, tn, uri); len(d.Metadata) != 0 || d.Metadata == nil {
		t.Fatalf("after metadata {}: %+v, want {}", d)
	}
	// A new document without metadata gets {}; its derived title follows
	// its content, and roots the heading path of its (untitled) chunks.
	upsert(t, p, tn, ingest.Document{SourceURI: "x://new.md", Content: []byte("# First\n\nfresh text"), FromText: true})
	if d, ok := readDoc(t, tn, "x://new.md"); !ok || d.Metadata == nil || len(d.Metadata) != 0 || d.Title != "First" {
		t.Fatalf("new document without metadata: %+v", d)
	}
	upsert(t, p, tn, ingest.Document{SourceURI: "x://new.md", Content: []byte("# Second\n\nfresh text"), FromText: true})
	if d, _ := readDoc(t, tn, "x://new.md"); d.Title != "Second" {
		t.Fatalf("derived title after a content update: %+v, want Second", d)
	}
	upsert(t, p, tn, ingest.Document{SourceURI: "x://plain.txt", Content: []byte("plain words"), FromText: true, Title: "Named"})
	upsert(t, p, tn, ingest.Document{SourceURI: "x://plain.txt", Content: []byte("other plain words"), FromText: true})
	if d, _ := readDoc(t, tn, "x://plain.txt"); d.Title != "Named" || !strings.HasPrefix(d.Chunks, "Named\x1f") {
		t.Fatalf("untitled text after a content update: %+v, want the named title kept in title and heading path", d)
	}
}

// TestUpsertIsACompareAndSetOnTheTitle: a write that names no title
// computed its title (and its chunks' heading paths) from the stored
// title_given; UpsertDocument refuses it (no row) when a concurrent write
// named a title since, and leaves the row as it was.
func TestUpsertIsACompareAndSetOnTheTitle(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	upsert(t, p, tn, ingest.Document{SourceURI: "x://cas.txt", Content: []byte("text one"), FromText: true, Title: "Named"})
	q := store.New()
	params := store.UpsertDocumentParams{TenantID: tn.ID, SourceUri: "x://cas.txt", Title: "cas.txt", TitleGiven: false, TitleNamed: false,
		ContentType: "text/plain", ContentSha: []byte("sha"), Pipeline: p.Fingerprint(), Body: "text two", ChunkCount: 0}
	err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		_, err := q.UpsertDocument(ctx, tx, params)
		return err
	})
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("upsert assuming a derived title over a named one: %v, want no row", err)
	}
	if d, _ := readDoc(t, tn, "x://cas.txt"); d.Title != "Named" || d.SHA != ingest.ContentSHA([]byte("text one")) {
		t.Fatalf("row after the refused upsert: %+v", d)
	}
	params.Title, params.TitleGiven = "Named", true // what Upsert computes from the stored row
	err = store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		_, err := q.UpsertDocument(ctx, tx, params)
		return err
	})
	if err != nil {
		t.Fatalf("upsert carrying the named title: %v", err)
	}
}

// TestRacingWritersStoreOneWholeRequest races writers at one source_uri:
// each round, one or two requests carry the stored content (the
// same-content path: only title and metadata change) and one or two carry
// another content, every request with its own title and metadata. After
// the round, the stored document must be exactly one request's write:
// content hash, chunks, title and metadata all from the same request.
// 200 rounds over two source_uris at once here; the API's
// TestRacingPUTsStoreOneWholeRequest runs 1,000 through PUT.
func TestRacingWritersStoreOneWholeRequest(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	contents := make([][]byte, 3)
	want := map[string]string{} // content sha → chunks it stores
	for i := range contents {
		contents[i] = []byte(fmt.Sprintf("# Version %d\n\nThe shared page, version %d, about widgets.\n\n## Detail\n\nDetail %d of the page.\n", i, i, i))
		ref := fmt.Sprintf("ref://%d", i)
		upsert(t, p, tn, ingest.Document{SourceURI: ref, ContentType: "markdown", Content: contents[i], FromText: true})
		d, _ := readDoc(t, tn, ref)
		want[d.SHA] = d.Chunks
	}
	const sources, rounds = 2, 100
	var torn, fullWins, sameWins int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for s := range sources {
		wg.Go(func() {
			uri := fmt.Sprintf("race://doc-%d", s)
			cur := 0
			upsert(t, p, tn, ingest.Document{SourceURI: uri, ContentType: "markdown", Content: contents[cur], FromText: true})
			for r := range rounds {
				type request struct {
					doc  ingest.Document
					same bool
				}
				reqs := []request{
					{ingest.Document{SourceURI: uri, Content: contents[cur]}, true},
					{ingest.Document{SourceURI: uri, Content: contents[(cur+1+r%2)%len(contents)]}, false},
				}
				if r%3 == 0 { // a second same-content writer
					reqs = append(reqs, request{ingest.Document{SourceURI: uri, Content: contents[cur]}, true})
				}
				if r%5 == 0 { // a second writer of new content
					reqs = append(reqs, request{ingest.Document{SourceURI: uri, Content: contents[(cur+2)%len(contents)]}, false})
				}
				for i := range reqs {
					reqs[i].doc.FromText, reqs[i].doc.ContentType = true, "markdown"
					reqs[i].doc.Title = fmt.Sprintf("title %d.%d.%d", s, r, i)
					reqs[i].doc.Metadata = map[string]any{"req": fmt.Sprintf("%d.%d.%d", s, r, i)}
				}
				var rw sync.WaitGroup
				errs := make([]error, len(reqs))
				for i := range reqs {
					rw.Go(func() { _, errs[i] = p.Upsert(ctx, tn, reqs[i].doc) })
				}
				rw.Wait()
				for _, err := range errs {
					if err != nil {
						t.Errorf("round %d of %s: %v", r, uri, err)
						return
					}
				}
				got, _ := readDoc(t, tn, uri)
				whole := -1
				for i, q := range reqs {
					if got.SHA == ingest.ContentSHA(q.doc.Content) && got.Title == q.doc.Title &&
						reflect.DeepEqual(got.Metadata, q.doc.Metadata) && got.Chunks == want[got.SHA] {
						whole = i
					}
				}
				mu.Lock()
				if whole < 0 {
					torn++
					if torn <= 3 {
						t.Errorf("round %d of %s: torn document %+v", r, uri, got)
					}
				} else if reqs[whole].same {
					sameWins++
				} else {
					fullWins++
				}
				mu.Unlock()
				for i := range contents {
					if got.SHA == ingest.ContentSHA(contents[i]) {
						cur = i
					}
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d rounds: %d torn; the last write was a same-content one %d times, a new-content one %d times",
		sources*rounds, torn, sameWins, fullWins)
	if torn != 0 {
		t.Fatalf("%d of %d rounds left a torn document", torn, sources*rounds)
	}
	if sameWins == 0 || fullWins == 0 {
		t.Fatalf("the race never let both kinds of write finish last (same-content %d, new content %d): it tested nothing", sameWins, fullWins)
	}
	if docs, _ := consistency(t, tn); docs != sources+len(contents) {
		t.Fatalf("%d documents, want %d", docs, sources+len(contents))
	}
}

// TestIngestOutcomesSkippedRefusedFailed: symbolic links to JavaScript
// outside the tree (one of them dangling, as in Debian's documentation
// packages) are not failures; a link to a page outside the tree and a
// binary file under a text name are skipped, a file over the size limit is
// refused, a file that is not UTF-8 in any charset it declares fails. Each
// is reported under its kind.
func TestIngestOutcomesSkippedRefusedFailed(t *testing.T) {
	t.Parallel()
	_, _, tn := setup(t)
	p, err := ingest.New(testdb.App(t), emb, 1, ingest.WithMaxBytes(2000))
	if err != nil {
		t.Fatal(err)
	}
	root, outside := t.TempDir(), t.TempDir()
	write := func(dir, name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(root, "index.html", []byte("<html><title>Index</title><p>The index page.</p></html>"))
	write(root, "big.txt", []byte(strings.Repeat("many words ", 300)))
	write(root, "image.md", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	write(root, "latin1.txt", []byte("caf\xe9 au lait")) // Windows-1252, read as such (fileCharset)
	write(root, "utf16.txt", []byte("\xff\xfeA\x00B"))   // a UTF-16 mark and an odd byte: damaged
	write(outside, "jquery.js", []byte("function $(){}"))
	write(outside, "secret.md", []byte("# Secret\n\nOutside."))
	for link, target := range map[string]string{
		"jquery.js":     filepath.Join(outside, "jquery.js"),
		"underscore.js": filepath.Join(outside, "gone", "underscore.js"), // dangling
		"secret.md":     filepath.Join(outside, "secret.md"),
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	files, walkFails, err := ingest.Walk([]string{root}, ingest.WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := p.IngestFiles(context.Background(), tn, files, 2, ingest.Prune{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum.Add(walkFails...)
	kinds := map[string]ingest.Kind{}
	for _, f := range sum.NotIngested() {
		kinds[filepath.Base(f.Path)] = f.Kind
	}
	want := map[string]ingest.Kind{"secret.md": ingest.KindSkipped, "image.md": ingest.KindSkipped,
		"big.txt": ingest.KindRefused, "utf16.txt": ingest.KindFailed}
	if !reflect.DeepEqual(kinds, want) || sum.Added != 2 || sum.Skipped != 2 || sum.Refused != 1 || sum.Failed != 1 {
		t.Fatalf("outcomes %v (summary %+v), want %v and index.html and latin1.txt added", kinds, sum, want)
	}
}
