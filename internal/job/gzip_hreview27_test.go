package job_test

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/job"
)

// TestHReview27GzippedEntriesCountUncompressed: since 2b4ef10 a job's
// gzipped file ("docs/page.md.gz") is typed by its name without ".gz"
// (Input.file) and read decompressed by the pipeline, each up to the
// document limit. Archive counts such an entry toward MaxJobBytes ("a job
// holds at most … that many bytes uncompressed", README: "bytes stored
// (archives: uncompressed)") by its gzip bytes only: a 5 KB zip of
// twenty gzipped pages is accepted under a 1 MiB job limit and holds
// 4 MB of text for the worker — with the defaults, 10,000 such entries expand a request
// of about 100 MB to 100 GB to extract and embed, past the bound and past
// MaxRatio's zip-bomb guard alike.
func TestHReview27GzippedEntriesCountUncompressed(t *testing.T) {
	t.Parallel()
	page := "# Page\n\n" + strings.Repeat("The archive tool packs the files of a directory into one archive. ", 3000) // ~200 KB
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range 20 {
		fw, err := zw.Create(fmt.Sprintf("docs/page%02d.md.gz", i))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(gz(t, page)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	limits := job.Limits{MaxFileBytes: 1 << 20, MaxJobBytes: 1 << 20, MaxFiles: 10000}
	files, err := readArchive(job.Input{Limits: limits}, buf.Bytes())
	if errors.Is(err, job.ErrTooLarge) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		if f.Refuse != "" {
			continue
		}
		r, err := gzip.NewReader(bytes.NewReader(f.Content))
		if err != nil {
			total += len(f.Content)
			continue
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if f.ContentType != "text/markdown" {
			t.Fatalf("%s typed %q; the test expects the pipeline to read it as the Markdown it holds", f.SourceURI, f.ContentType)
		}
		total += len(b)
	}
	if int64(total) > limits.MaxJobBytes {
		t.Errorf("a %d-byte zip of %d gzipped pages is accepted and holds %d bytes uncompressed, over MaxJobBytes %d",
			buf.Len(), len(files), total, limits.MaxJobBytes)
	}
}
