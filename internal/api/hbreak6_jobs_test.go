package api_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestIngestJobMetadataCountsTowardTheJobLimit (breaker h-break6):
// RAGD_INGEST_JOB_MAX_BYTES is "the largest ingestion job: body of POST
// /v1/ingest/jobs and bytes stored", and docs/SECURITY.md bounds a job's
// queue in PostgreSQL by it. The job's metadata (up to 64 KiB) is copied
// into every item row (ingestion_items.metadata) and counted nowhere, and
// the rows are never deleted (only with the tenant). A tar.gz of 200
// three-byte entries with 60 KB of metadata — a request of about 63 KB —
// stores about 12 MB in ingestion_items under a 1 MiB job limit; with the
// defaults (10,000 entries) one ~1 MB request stores about 600 MB.
// Want: the job refused (413), or what it stores within the limit.
func TestIngestJobMetadataCountsTowardTheJobLimit(t *testing.T) {
	t.Parallel()
	const limit = 1 << 20
	b := setup(t, func(d *api.Deps) { d.Limits.MaxJobBytes = limit })
	editor := token(t, b.a.ID, auth.RoleEditor)

	var tb bytes.Buffer
	gz := gzip.NewWriter(&tb)
	tw := tar.NewWriter(gz)
	for i := range 200 {
		tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("d/%03d.md", i), Mode: 0o644, Size: 3, Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)})
		tw.Write([]byte("# x"))
	}
	tw.Close()
	gz.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	letters := make([]byte, 60000)
	for i := range letters {
		letters[i] = byte('a' + rng.IntN(26))
	}
	meta := `{"note":"` + string(letters) + `"}`
	body, ct := jobForm(t, []part{{"archive", "many.tar.gz", tb.String()}}, map[string]string{"metadata": meta})
	t.Logf("request body %d bytes, job limit %d", body.Len(), limit)

	w := b.do(req{method: "POST", path: "/v1/ingest/jobs", token: editor, body: body.Bytes(), header: map[string]string{"Content-Type": ct}})
	if w.Code == http.StatusRequestEntityTooLarge {
		return // refused: fine
	}
	j := decode[job.Job](t, w, http.StatusAccepted)
	ctx := store.WithVisibility(context.Background(), store.AllDocuments())
	var stored int64
	err := store.InTenant(ctx, testdb.App(t), b.a.ID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT coalesce(sum(coalesce(octet_length(content), 0) + coalesce(octet_length(metadata::text), 0)), 0)
			FROM ingestion_items WHERE batch_id = $1`, j.ID).Scan(&stored)
	})
	if err != nil {
		t.Fatal(err)
	}
	if stored > limit {
		t.Errorf("a job of %d request bytes stored %d bytes in ingestion_items (content + metadata), over RAGD_INGEST_JOB_MAX_BYTES = %d",
			body.Len(), stored, limit)
	}
}
