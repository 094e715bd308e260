package reliability

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestCrashSafeJob submits an archive job to `ragd serve` (the real binary,
// two ingestion workers, a 2 s lease), kills the server with SIGKILL while
// its workers are storing documents, checks that every stored document is
// whole, restarts the server and checks that it finishes the job: every
// document stored exactly once, whole, with the statistics equal to the
// chunks, and the documents the dead server held taken again once their
// leases expired.
func TestCrashSafeJob(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: builds and kills the binary")
	}
	t.Parallel()
	bin := buildRagd(t)
	emb := local(t)
	fake := newFakeEmbedServer(t, nil)
	tn := testdb.NewTenant(t, "jobcrash", "")
	seed := testSeed(t)
	rnd := rand.New(rand.NewPCG(seed, 11))
	const nDocs = 40
	var archive bytes.Buffer
	gz := gzip.NewWriter(&archive)
	tw := tar.NewWriter(gz)
	shas := map[string]string{}
	for i := range nDocs {
		var b strings.Builder
		fmt.Fprintf(&b, "# Job page %d\n\n", i)
		for s := range 2 + rnd.IntN(4) {
			fmt.Fprintf(&b, "## Step %d\n\n", s)
			for range 4 + rnd.IntN(8) {
				fmt.Fprintf(&b, "The %s checks the %s before the %s. ", words(rnd, 1), words(rnd, 2), words(rnd, 1))
			}
			b.WriteString("\n\n")
		}
		name := fmt.Sprintf("pages/p%02d.md", i)
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(b.Len()), Typeflag: tar.TypeReg})
		tw.Write([]byte(b.String()))
		shas["https://jobs.example/"+name] = ingest.ContentSHA([]byte(b.String()))
	}
	tw.Close()
	gz.Close()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"RAGD_DATABASE_URL=" + testdb.URL(), "RAGD_ADMIN_DATABASE_URL=" + testdb.AdminURL(),
		"RAGD_EMBED_BASE_URL=" + fake.URL + "/v1", "RAGD_EMBED_MODEL=" + emb.Model(), "RAGD_EMBED_DIMS=" + fmt.Sprint(emb.Dims()),
		"RAGD_LOG_LEVEL=error", "RAGD_DB_MAX_CONNS=6", "RAGD_JWT_SECRET=" + secret, "RAGD_ADDR=" + addr,
		"RAGD_INGEST_WORKERS=2", "RAGD_INGEST_LEASE=2s"}
	start := func() (*exec.Cmd, chan error, *strings.Builder) {
		cmd := exec.Command(bin, "serve")
		cmd.Env = env
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		for deadline := time.Now().Add(30 * time.Second); ; {
			if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
				r.Body.Close()
				return cmd, exited, out
			}
			select {
			case err := <-exited:
				t.Fatalf("ragd serve exited: %v\n%s", err, out)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("ragd serve not up after 30 s:\n%s", out)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	tok, err := auth.Issue(secret, tn.ID, auth.RoleEditor, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	call := func(method, path string, body *bytes.Buffer, ct string) (*http.Response, []byte) {
		t.Helper()
		if body == nil {
			body = &bytes.Buffer{}
		}
		req, _ := http.NewRequest(method, "http://"+addr+path, body)
		req.Header.Set("Authorization", "Bearer "+tok)
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var buf bytes.Buffer
		buf.ReadFrom(resp.Body)
		return resp, buf.Bytes()
	}

	cmd, exited, out := start()
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("archive", "pages.tar.gz")
	fw.Write(archive.Bytes())
	mw.WriteField("base_uri", "https://jobs.example/")
	mw.Close()
	resp, body := call("POST", "/v1/ingest/jobs", &form, mw.FormDataContentType())
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST job: %d %s", resp.StatusCode, body)
	}
	var j job.Job
	json.Unmarshal(body, &j)

	// Kill once a few documents are stored, a random few milliseconds later,
	// so the kill lands in the next documents' extraction, embedding or
	// transaction.
	target := 3 + rnd.IntN(nDocs/2)
	for deadline := time.Now().Add(60 * time.Second); docCount(t, tn.ID) < target; {
		if time.Now().After(deadline) {
			t.Fatalf("%d documents after 60 s\n%s", docCount(t, tn.ID), out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(time.Duration(rnd.IntN(40)) * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	killedAt := docCount(t, tn.ID)
	inFlight := openItems(t, tn.ID, j.ID)
	t.Logf("seed %d: killed at %d documents; unfinished items by stage: %v", seed, killedAt, inFlight)
	wholeOrAbsent(t, tn.ID, shas)
	consistency(t, tn.ID)
	if t.Failed() {
		t.Fatal("inconsistent after the kill")
	}

	// The restarted server finishes the job.
	cmd, exited, out = start()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(40 * time.Second):
			cmd.Process.Kill()
			t.Errorf("ragd serve did not stop on SIGTERM\n%s", out)
		}
	}()
	var done job.Job
	for deadline := time.Now().Add(90 * time.Second); ; {
		_, body := call("GET", "/v1/ingest/jobs/"+j.ID.String(), nil, "")
		var d struct{ Job job.Job }
		json.Unmarshal(body, &d)
		if done = d.Job; done.Done == nDocs {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job not done after the restart: %+v\n%s", done, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if done.Stored+done.Unchanged != nDocs || done.Status != job.StatusCompleted || done.Finished == nil {
		t.Fatalf("finished job %+v", done)
	}
	if n := docCount(t, tn.ID); n != nDocs {
		t.Fatalf("%d documents, want %d", n, nDocs)
	}
	wholeOrAbsent(t, tn.ID, shas)
	consistency(t, tn.ID)
	// A document the dead server was working on was claimed a second time.
	if started := inFlight[job.StageExtracted] + inFlight[job.StageChunked] + inFlight[job.StageEmbedded]; started > 0 {
		if n := maxAttempts(t, tn.ID, j.ID); n < 2 {
			t.Errorf("%d documents were in progress at the kill, but no document was claimed twice", started)
		}
	}
}

// openItems counts a job's unfinished items by stage.
func openItems(t *testing.T, tenantID, jobID uuid.UUID) map[string]int {
	t.Helper()
	out := map[string]int{}
	ctx := context.Background()
	err := store.InTenant(ctx, testdb.App(t), tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT stage, count(*) FROM ingestion_items WHERE batch_id = $1
			AND stage IN ('queued', 'extracted', 'chunked', 'embedded') GROUP BY stage`, jobID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			var n int
			if err := rows.Scan(&s, &n); err != nil {
				return err
			}
			out[s] = n
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// maxAttempts is the most claims any item of the job had.
func maxAttempts(t *testing.T, tenantID, jobID uuid.UUID) int {
	t.Helper()
	var n int
	ctx := context.Background()
	err := store.InTenant(ctx, testdb.App(t), tenantID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, "SELECT coalesce(max(attempts), 0) FROM ingestion_items WHERE batch_id = $1", jobID).Scan(&n)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
