package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestReembeddingRacingAccessChange: a model switch's re-embedding (an
// embedding inserted after its chunk) racing an access change of the
// chunk's document ends, in both orders, with the new embedding carrying
// the document's access_id: the change waits for an insert that locked the
// chunk first and then rewrites its embedding, and an insert that comes
// while the change is open waits for it and takes the new list. (Before,
// the embedding kept the old access_id: a restricted chunk's vector
// marked tenant-wide, or the reverse.)
func TestReembeddingRacingAccessChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, "acl-reembed", "")
	d, chunks := seed(t, pool, tn.ID, "acl://doc", "racing access words")
	other, _ := seed(t, pool, tn.ID, "acl://other", "other words")
	setAccess(t, pool, tn.ID, other, "group:x") // the tenant has access lists
	var models []int16
	for range 2 {
		var id int16
		if err := testdb.Owner(t).QueryRow(ctx, `INSERT INTO embedding_models (name, dims, provider) VALUES ($1, 4, 'local') RETURNING id`,
			fmt.Sprintf("race-%s", uuid.NewString()[:8])).Scan(&id); err != nil {
			t.Fatal(err)
		}
		models = append(models, id)
	}
	reembed := func(ctx context.Context, tx pgx.Tx, model int16) error {
		p := store.InsertReembeddingsParams{TenantID: tn.ID, ModelID: model}
		for _, c := range chunks {
			p.ChunkIds = append(p.ChunkIds, c)
			p.TextShas = append(p.TextShas, []byte{1})
			p.Embeddings = append(p.Embeddings, pgvector.NewVector([]float32{1, 0, 0, 0}))
		}
		_, err := store.New().InsertReembeddings(ctx, tx, p)
		return err
	}
	begin := func() pgx.Tx {
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, `SELECT set_config('app.tenant_id', $1, true), set_config('app.principals', '*', true)`, tn.ID.String()); err != nil {
			t.Fatal(err)
		}
		return tx
	}
	stale := func(when string) {
		t.Helper()
		var n int
		err := store.InTenant(asAll(), pool, tn.ID, func(tx pgx.Tx) error {
			return tx.QueryRow(ctx, `SELECT count(*) FROM chunk_embeddings e JOIN documents d ON d.tenant_id = e.tenant_id AND d.id = $1
				WHERE e.tenant_id = $2 AND e.chunk_id = ANY ($3) AND e.access_id <> d.access_id`, d, tn.ID, chunks).Scan(&n)
		})
		if err != nil || n != 0 {
			t.Errorf("%s: %d embeddings disagree with their document's access list (%v)", when, n, err)
		}
	}

	// The access change first, open while the re-embedding runs.
	change := begin()
	if _, err := store.SetDocumentAccess(asAll(), change, tn.ID, d, []string{"group:hr"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- store.InTenant(asAll(), pool, tn.ID, func(tx pgx.Tx) error { return reembed(ctx, tx, models[0]) })
	}()
	time.Sleep(300 * time.Millisecond)
	if err := change.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	stale("re-embedding during an access change")

	// The re-embedding first, open while the access change runs.
	ins := begin()
	if err := reembed(ctx, ins, models[1]); err != nil {
		t.Fatal(err)
	}
	go func() {
		done <- store.InTenant(asAll(), pool, tn.ID, func(tx pgx.Tx) error {
			_, err := store.SetDocumentAccess(asAll(), tx, tn.ID, d, []string{"group:eng"})
			return err
		})
	}()
	time.Sleep(300 * time.Millisecond)
	if err := ins.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	stale("access change during a re-embedding")
}
