package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/job"
)

func gzipBytes(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGzippedFilesOverHTTP: Debian ships documentation gzipped
// (README.md.gz, manual.pdf.gz), and `ragd ingest` reads such files
// decompressed. An upload of one was refused with 415 and an ingestion
// job skipped it; both now read it as the file it holds, whose name
// without ".gz" and bytes say what it is. A corrupt gzip stream is a 422
// naming it, and the server goes on serving.
func TestGzippedFilesOverHTTP(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	upload := func(filename string, content []byte) *httptest.ResponseRecorder {
		body, ct := multipartBody(t, filename, "application/gzip", content, nil)
		return b.do(req{method: "POST", path: "/v1/documents/upload", token: ed, body: body.Bytes(), header: map[string]string{"Content-Type": ct}})
	}
	out := decode[api.DocumentWrite](t, upload("install.md.gz", gzipBytes(t, docInstall)), 200)
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: ed}), 200)
	if out.SourceURI != "install.md.gz" || doc.ContentType != "text/markdown" || doc.Title != "Installing Widgets" || doc.Chunks == 0 {
		t.Fatalf("gzipped upload: %+v, document %+v", out, doc)
	}
	problem(t, upload("broken.md.gz", []byte("\x1f\x8b\x08\x00garbage")), http.StatusUnprocessableEntity)
	// An untitled file's title is its name, that of the file it holds.
	out = decode[api.DocumentWrite](t, upload("notes.md.gz", gzipBytes(t, "Just a line of notes, no heading.\n")), 200)
	doc = decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: ed}), 200)
	if doc.Title != "notes.md" {
		t.Errorf("untitled gzipped upload: title %q, want notes.md", doc.Title)
	}
	out = decode[api.DocumentWrite](t, upload("NOTES.TXT.GZ", gzipBytes(t, "Just a line of notes, no heading.\n")), 200)
	doc = decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: ed}), 200)
	if doc.Title != "NOTES.TXT" {
		t.Errorf("untitled gzipped upload: title %q, want NOTES.TXT", doc.Title)
	}

	body, ct := jobForm(t, []part{{"files", "billing.txt.gz", string(gzipBytes(t, docBilling))}}, nil)
	j := decode[job.Job](t, b.do(req{method: "POST", path: "/v1/ingest/jobs", token: ed, body: body.Bytes(), header: map[string]string{"Content-Type": ct}}), http.StatusAccepted)
	w := b.worker(b.a.ID)
	for {
		ok, err := w.Work(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
	}
	end := decode[api.JobDetail](t, b.do(req{method: "GET", path: "/v1/ingest/jobs/" + j.ID.String(), token: ed}), 200)
	if end.Job.Status != job.StatusCompleted || end.Job.Stored != 1 {
		t.Fatalf("job with a gzipped file: %+v, documents %+v; want it stored", end.Job, end.Documents)
	}
}
