package ingest_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestMetadataChangePastFloatPrecisionIsStored_hreview7: metadata numbers are
// kept as written (json.Number), but an unchanged document's new metadata is
// compared with the stored one through float64 (sameJSON): 9007199254740993
// replacing 9007199254740992 is "unchanged" and never written, so the filter
// for …993 still misses the document.
func TestMetadataChangePastFloatPrecisionIsStored_hreview7(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	const uri = "https://example.test/big-ids.md"
	content := []byte("# Ids\n\nLarge identifiers in metadata.\n")
	meta := func(n string) map[string]any {
		m, err := ingest.DecodeMetadata([]byte(`{"build": ` + n + `}`))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	upsert(t, p, tn, ingest.Document{SourceURI: uri, Content: content, FromText: true, Metadata: meta("9007199254740992")})
	out := upsert(t, p, tn, ingest.Document{SourceURI: uri, Content: content, FromText: true, Metadata: meta("9007199254740993")})
	var stored string
	err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT (metadata->'build')::text FROM documents WHERE tenant_id = $1 AND source_uri = $2`, tn.ID, uri).Scan(&stored)
	})
	if err != nil {
		t.Fatal(err)
	}
	if stored != "9007199254740993" || out.Status != ingest.StatusUpdated {
		t.Fatalf("metadata build 9007199254740992 → 9007199254740993 on unchanged content: status %s, stored %s; want updated, 9007199254740993", out.Status, stored)
	}
}
