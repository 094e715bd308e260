package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// The crash test's size. RAGD_CRASH_DOCS and RAGD_CRASH_KILLS replace them
// (docs/SECURITY.md records a 1,000-document run).
const (
	crashDocs  = 200
	crashKills = 3
)

func envInt(t *testing.T, name string, def int) int {
	if v := os.Getenv(name); v != "" {
		var n int
		if _, err := fmt.Sscan(v, &n); err != nil || n < 1 {
			t.Fatalf("%s=%q", name, v)
		}
		return n
	}
	return def
}

// buildRagd builds the real binary once per test.
func buildRagd(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ragd")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/ragd-dev/ragd/cmd/ragd").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestCrashSafeIngest runs `ragd ingest` (the real binary) over generated
// documents and kills it with SIGKILL at random points while it writes;
// after every kill each document is either whole (its chunks, their
// embeddings, its keyword statistics) or absent, with no orphan rows and
// BM25 statistics equal to the chunks; a final run completes the job.
//
// The binary embeds through an in-process OpenAI-compatible server backed by
// the local model, so each start skips loading the model (the vectors are
// the same) and kills land in ingestion, not in start-up.
func TestCrashSafeIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: builds and kills the binary")
	}
	t.Parallel()
	nDocs, kills := envInt(t, "RAGD_CRASH_DOCS", crashDocs), envInt(t, "RAGD_CRASH_KILLS", crashKills)
	t0 := time.Now()
	bin := buildRagd(t)
	t.Logf("built in %s", time.Since(t0).Round(time.Millisecond))
	emb := local(t)
	fake := newFakeEmbedServer(t, nil)
	tn := testdb.NewTenant(t, "crash", "")
	dir := t.TempDir()
	seed := testSeed(t)
	rnd := rand.New(rand.NewPCG(seed, 7))
	t.Logf("seed %d, %d documents, %d kills", seed, nDocs, kills)
	shas := map[string]string{} // source_uri → content sha
	for i := range nDocs {
		var b strings.Builder
		fmt.Fprintf(&b, "# Runbook page %d\n\nThis page describes %s for service %d.\n\n", i, words(rnd, 3), i)
		for s := range 1 + rnd.IntN(3) {
			fmt.Fprintf(&b, "## Step %d\n\n", s)
			for range 3 + rnd.IntN(6) {
				fmt.Fprintf(&b, "The %s checks the %s before the %s. ", words(rnd, 1), words(rnd, 2), words(rnd, 1))
			}
			b.WriteString("\n\n")
		}
		p := filepath.Join(dir, fmt.Sprintf("page-%04d.md", i))
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		shas["https://runbook.example/"+filepath.Base(p)] = ingest.ContentSHA([]byte(b.String()))
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"RAGD_DATABASE_URL=" + testdb.URL(), "RAGD_ADMIN_DATABASE_URL=" + testdb.AdminURL(),
		"RAGD_EMBED_BASE_URL=" + fake.URL + "/v1", "RAGD_EMBED_MODEL=" + emb.Model(), "RAGD_EMBED_DIMS=" + fmt.Sprint(emb.Dims()),
		"RAGD_LOG_LEVEL=error", "RAGD_DB_MAX_CONNS=4"}
	args := []string{"ingest", "--tenant", tn.Slug, "--workers", "3", "--base-uri", "https://runbook.example/", dir}

	killedAt := []int{}
	for k := range kills {
		before := countRows(t, tn.ID).Docs
		remaining := nDocs - before
		if remaining < 2 {
			break
		}
		target := before + 1 + rnd.IntN(max(1, remaining/(kills-k)))
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		// Kill once the target number of documents is committed, plus a
		// random few milliseconds, so the kill lands anywhere in the next
		// documents' work: extraction, embedding, or a transaction.
		deadline := time.After(60 * time.Second)
	poll:
		for {
			select {
			case err := <-exited:
				t.Logf("run %d finished before the kill (%v): %s", k, err, out.String())
				exited <- err
				break poll
			case <-deadline:
				t.Fatalf("run %d: %d documents after 60 s", k, countRows(t, tn.ID).Docs)
			case <-time.After(10 * time.Millisecond):
				if docCount(t, tn.ID) >= target {
					time.Sleep(time.Duration(rnd.IntN(30)) * time.Millisecond)
					break poll
				}
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		c := countRows(t, tn.ID)
		t.Logf("kill %d at %d documents, %s", k, c.Docs, time.Since(t0).Round(time.Millisecond))
		killedAt = append(killedAt, c.Docs)
		wholeOrAbsent(t, tn.ID, shas)
		consistency(t, tn.ID)
		if t.Failed() {
			t.Fatalf("after kill %d (at %d documents): inconsistent", k, c.Docs)
		}
	}

	// The rerun completes the job, skipping what is already stored.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	c := countRows(t, tn.ID)
	if c.Docs != nDocs {
		t.Fatalf("after the rerun %d documents, want %d\n%s", c.Docs, nDocs, out)
	}
	wholeOrAbsent(t, tn.ID, shas)
	consistency(t, tn.ID)
	t.Logf("killed at %v documents; rerun: %s", killedAt, strings.TrimSpace(string(out)))
}

// docCount is the tenant's number of documents (the cheap poll).
func docCount(t *testing.T, id uuid.UUID) int {
	t.Helper()
	var n int
	ctx := context.Background()
	err := store.InTenant(ctx, testdb.App(t), id, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, "SELECT count(*) FROM documents").Scan(&n)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// wholeOrAbsent checks that every stored document is one of the generated
// files with its exact content hash and all its chunks embedded.
func wholeOrAbsent(t *testing.T, id uuid.UUID, shas map[string]string) {
	t.Helper()
	ctx := context.Background()
	err := store.InTenant(ctx, testdb.App(t), id, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT d.source_uri, encode(d.content_sha, 'hex'), d.chunk_count,
			(SELECT count(*) FROM chunks c WHERE c.document_id = d.id),
			(SELECT count(*) FROM chunks c JOIN chunk_embeddings e ON e.chunk_id = c.id WHERE c.document_id = d.id)
			FROM documents d`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var uri, sha string
			var want, chunks, embedded int
			if err := rows.Scan(&uri, &sha, &want, &chunks, &embedded); err != nil {
				return err
			}
			if shas[uri] != sha || want < 1 || chunks != want || embedded != want {
				t.Errorf("document %s: sha %s (want %s), chunk_count %d, %d chunks, %d embedded", uri, sha, shas[uri], want, chunks, embedded)
			}
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
}
