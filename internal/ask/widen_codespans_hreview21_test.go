package ask

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// checkWidenedCodeRanges ingests doc with small chunks and widens each of
// its chunks as an extractive answer's source: every code range of a
// source must lie inside its content and hold text of one of the
// document's code blocks (multi-byte text, overlapping windows, a table's
// repeated header rows before a chunk's content), and some must arrive.
func checkWidenedCodeRanges(t *testing.T, ct string, doc []byte, overlap int) {
	t.Helper()
	ctx := context.Background()
	pool := testdb.App(t)
	tt := testdb.NewTenant(t, "hr21-"+strings.ReplaceAll(ct, "/", "-"), "")
	tn, err := tenant.Load(ctx, pool, tt.ID)
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embed.NewLocal(embed.DefaultModelDir(os.Getenv))
	if err != nil {
		t.Fatal(err)
	}
	cfg := chunk.DefaultConfig()
	cfg.TargetTokens, cfg.MaxTokens, cfg.MinTokens, cfg.OverlapTokens = 20, 30, 5, overlap
	p, err := ingest.New(pool, emb, 1, ingest.WithChunkConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/x", ContentType: ct, Content: doc})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := extract.Extract(ct, doc)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, b := range ex.Blocks {
		if b.Kind == extract.KindCode {
			codes = append(codes, ex.Text[b.Start:b.End])
		}
	}
	var rs []search.Result
	err = store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "SELECT id, content, start_offset, end_offset, heading_path FROM chunks WHERE document_id = $1 ORDER BY chunk_index", res.DocumentID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r search.Result
			var id uuid.UUID
			var s, e int32
			if err := rows.Scan(&id, &r.Content, &s, &e, &r.HeadingPath); err != nil {
				return err
			}
			r.ChunkID, r.DocumentID, r.StartOffset, r.EndOffset = id, res.DocumentID, int(s), int(e)
			rs = append(rs, r)
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{Searcher: &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}, Answerer: answer.New(nil)}
	total := 0
	for _, r := range rs {
		out, _, code, err := s.widen(ctx, tn, []search.Result{r})
		if err != nil {
			t.Fatal(err)
		}
		w := out[0]
		total += len(code[0].code)
		for _, sp := range code[0].code {
			if sp.Start < 0 || sp.End > len(w.Content) || sp.Start >= sp.End {
				t.Errorf("span %v out of %d", sp, len(w.Content))
				continue
			}
			txt := w.Content[sp.Start:sp.End]
			found := false
			for _, c := range codes {
				if strings.Contains(c, txt) {
					found = true
				}
			}
			if !found {
				t.Errorf("chunk %q: span text %q is in no code block", r.Content, txt)
			}
		}
	}
	if len(codes) > 0 && total == 0 {
		t.Errorf("the document has %d code blocks and no source got a code range", len(codes))
	}
}

func TestWidenedCodeRangesMarkdown(t *testing.T) {
	md := "# Größe und Ünïcödé\n\nDie Größe ändert sich — 日本語の説明文です。Ein längerer Satz über Größen und Maße.\n\n" +
		"| Schlüssel | Wert |\n|---|---|\n| ä | 1 |\n| ö | 2 |\n| ü | 3 |\n| ß | 4 |\n| é | 5 |\n| ñ | 6 |\n| ç | 7 |\n| å | 8 |\n| ø | 9 |\n\n" +
		"```\n$ größe --länge 5\nausgabe: ü ö ä\n\nzweite zeile nach leerer zeile\n```\n\nNach dem Code kommt Prosa über Maße und Längen in Übergröße.\n\n" +
		"    eingerückter code ä\n    zweite zeile ö\n\nEnde des Dokuments mit Umlauten äöü.\n"
	checkWidenedCodeRanges(t, "text/markdown", []byte(md), 0)
}

func TestWidenedCodeRangesOverlappingWindows(t *testing.T) {
	md := "# Größe\n\nDie Größe ändert sich — 日本語の説明文です。Ein längerer Satz über Größen und Maße. Noch ein Satz über Größen und Maße mit mehr Wörtern. Und noch einer.\n\n" +
		"```\n$ größe --länge 5\nausgabe: ü ö ä\n\nzweite zeile nach leerer zeile\ndritte zeile ä ö ü ß\nvierte zeile ä ö ü ß\nfünfte zeile ä ö ü ß\nsechste zeile ä ö ü ß\n```\n\nNach dem Code kommt Prosa über Maße und Längen in Übergröße. Mehr Prosa folgt hier mit Wörtern. Und noch mehr.\n"
	checkWidenedCodeRanges(t, "text/markdown", []byte(md), 8)
}

func TestWidenedCodeRangesAfterATable(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Größe\n\nDie Größe ändert sich — 日本語の説明文です。\n\n| Schlüssel | Wert | Beschreibung |\n|---|---|---|\n")
	for i := 0; i < 30; i++ {
		b.WriteString("| ä" + strings.Repeat("ö", i%5) + " | " + string(rune('a'+i%26)) + " | eine längere Beschreibung der Größe Nummer " + string(rune('A'+i%26)) + " |\n")
	}
	b.WriteString("\n```\n$ größe --länge 5\nausgabe: ü ö ä\n```\n\nEnde äöü.\n")
	checkWidenedCodeRanges(t, "text/markdown", []byte(b.String()), 0)
}

func TestWidenedCodeRangesPlainText(t *testing.T) {
	txt := "Größe\n=====\n\nDie Größe ändert sich — 日本語の説明文です。\n\n    $ größe --länge 5\n    ausgabe: ü ö ä\n\nEnde äöü.\n"
	checkWidenedCodeRanges(t, "text/plain", []byte(txt), 0)
}
