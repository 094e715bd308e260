package api_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"net/http"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/job"
)

// TestIngestJobArchiveNameIsOnlyALabel (breaker h-break6): the archive
// part's file name is used for nothing but the job's label ("What was
// submitted: the archive's file name"); the documents' source_uris come
// from the entries. An archive uploaded under a Latin-1 file name
// ("caf\xe9.tgz", as curl sends a name from a Latin-1 file system) whose
// entries are all valid is refused whole with 422 "text must be valid UTF-8
// without the NUL character (U+0000)" — the label's insert failed — with
// no word of which text. Want: the job accepted (the label made valid, as
// the code already does for labels over 2,000 bytes with
// strings.ToValidUTF8).
func TestIngestJobArchiveNameIsOnlyALabel(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	var tb bytes.Buffer
	gz := gzip.NewWriter(&tb)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "a.md", Mode: 0o644, Size: 3, Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)})
	tw.Write([]byte("# a"))
	tw.Close()
	gz.Close()
	body, ct := jobForm(t, []part{{"archive", "caf\xe9.tgz", tb.String()}}, nil)
	w := b.do(req{method: "POST", path: "/v1/ingest/jobs", token: editor, body: body.Bytes(), header: map[string]string{"Content-Type": ct}})
	if w.Code != http.StatusAccepted {
		t.Fatalf("an archive of valid entries under a Latin-1 file name: %d %s; want 202", w.Code, w.Body.String())
	}
	if j := decode[job.Job](t, w, http.StatusAccepted); j.Total != 1 {
		t.Errorf("job %+v", j)
	}
}
