package ingest_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// Found by h-break8.

// TestHBreak8DOCXTextIsBoundedLikeTheBody: the byte limit (RAGD_MAX_BODY_BYTES,
// 10 MB) is checked on the file, never on what it extracts to. A 212 KB
// DOCX upload (one 60 MiB document.xml of repeated paragraphs, under the
// 64 MiB part limit) was stored as 60 MB of text in 56,527 chunks in 23 s,
// taking ragd serve to 966 MB (VmHWM): six times the largest text the same
// route accepts as a text file, and as much of the tenant's storage, from
// a file a three-hundredth of the limit. Here with a 64 KiB limit: a 3 KB
// DOCX of 2 MB of text must be refused as too large, and nothing stored.
func TestHBreak8DOCXTextIsBoundedLikeTheBody(t *testing.T) {
	t.Parallel()
	_, _, tn := setup(t)
	limited, err := ingest.New(testdb.App(t), emb, 1, ingest.WithMaxBytes(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(`<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`))
	para := `<w:p><w:r><w:t>` + strings.Repeat("lorem ipsum dolor sit amet ", 40) + `</w:t></w:r></w:p>`
	for range (2 << 20) / 1080 {
		w.Write([]byte(para))
	}
	w.Write([]byte(`</w:body></w:document>`))
	zw.Close()
	data := buf.Bytes()
	if len(data) > 64<<10 {
		t.Fatalf("the DOCX is %d bytes, over the limit itself", len(data))
	}
	out, err := limited.Upsert(context.Background(), tn, ingest.Document{SourceURI: "bomb.docx", Content: data})
	if !errors.Is(err, ingest.ErrTooLarge) {
		t.Errorf("a %d-byte DOCX of 2 MB of text under a 64 KiB limit: %+v, %v; want ErrTooLarge", len(data), out, err)
	}
	if docs, chunks := consistency(t, tn); docs != 0 {
		t.Errorf("%d documents (%d chunks) stored from it, want none", docs, chunks)
	}
}

// TestHBreak8ConcurrentIdenticalWritesOfANewDocument: the same new file
// uploaded 20 times at once (curl in parallel to POST /v1/documents/upload)
// came back 1 "added", 15 "unchanged" and 4 "updated" (another run: 15
// "updated"), and the document's updated_at moved past its created_at:
// writes that arrived while the first was being stored rewrote its chunks
// with the same content (new chunk ids) and reported a change nobody made.
// The full write path compares the content hash only before extracting,
// never again under the row lock. Identical content is "unchanged".
func TestHBreak8ConcurrentIdenticalWritesOfANewDocument(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	content := markdown(20, "concurrency")
	const n = 20
	statuses := make(chan string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "conc.md", Content: content})
			if err != nil {
				statuses <- "error: " + err.Error()
				return
			}
			statuses <- string(out.Status)
		}()
	}
	close(start)
	wg.Wait()
	close(statuses)
	count := map[string]int{}
	for s := range statuses {
		count[s]++
	}
	if count[string(ingest.StatusAdded)] != 1 || count[string(ingest.StatusUnchanged)] != n-1 {
		t.Errorf("%d identical concurrent writes of a new document: %v; want 1 added, %d unchanged", n, count, n-1)
	}
	err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		var same bool
		if err := tx.QueryRow(ctx, `SELECT created_at = updated_at FROM documents WHERE source_uri = 'conc.md'`).Scan(&same); err != nil {
			return err
		}
		if !same {
			t.Errorf("the document was rewritten by writes of the same content (updated_at moved)")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	consistency(t, tn)
}

// TestHBreak8Latin1FileIsReadable: `ragd ingest` of a directory holding a
// Latin-1 (ISO-8859-1) or Windows-1252 text file — common in older
// documentation trees — reports it FAILED ("extract: input is not valid
// UTF-8", exit 1). The CLI has no way to declare a charset (the upload
// route honours only a declared charset= or a BOM), so such files cannot be
// ingested at all short of converting them first; the message does not
// say so either. Invalid UTF-8 in a text file is, by WHATWG's rule for
// text/plain and by overwhelming odds, Windows-1252: it should come out
// as readable text ("Crème brûlée"), not fail and not as mojibake.
func TestHBreak8Latin1FileIsReadable(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	latin1 := []byte("# Caf\xe9 menu\n\nCr\xe8me br\xfbl\xe9e and na\xefve fa\xe7ade, \xc6r\xf8, stra\xdfe.\n")
	cp1252 := []byte("Smart \x93quotes\x94 \x97 and the \x80 sign at the caf\xe9.\n")
	if err := os.WriteFile(filepath.Join(root, "menu.txt"), latin1, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "quotes.txt"), cp1252, 0o644); err != nil {
		t.Fatal(err)
	}
	files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: "https://example.test/"})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := p.IngestFiles(ctx, tn, files, 1, ingest.Prune{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != 2 || sum.Failed != 0 {
		t.Errorf("Latin-1 and Windows-1252 text files: %+v, want both added", sum.NotIngested())
	}
	var text string
	err = store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT coalesce(string_agg(content, E'\n'), '') FROM chunks`).Scan(&text)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Crème brûlée", "naïve façade", "“quotes”", "€ sign"} {
		if !strings.Contains(text, want) {
			t.Errorf("stored text lacks %q: %q", want, text)
		}
	}
}
