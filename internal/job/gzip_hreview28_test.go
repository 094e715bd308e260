package job_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/job"
)

// TestHReview28GzipInGzipCountsWhatThePipelineReads: inflate decompresses a
// job's gzipped file once, and counts that against MaxJobBytes; the
// pipeline (ingest.Upsert: GzipStream → gunzip) then decompresses whatever
// is still a gzip stream, up to its own document limit. A file gzipped
// twice ("page.md.gz.gz", or any gzip stream inside one) is counted by its
// inner gzip bytes only: twenty pages of 200 KB, each a few hundred bytes
// after two rounds of gzip, pass a 1 MiB job limit and hand the worker
// 4 MB of text to extract and embed, the bypass 17b606c closed for one
// round of gzip.
func TestHReview28GzipInGzipCountsWhatThePipelineReads(t *testing.T) {
	t.Parallel()
	page := "# Page\n\n" + strings.Repeat("The archive tool packs the files of a directory into one archive. ", 3000) // ~200 KB
	twice := gz(t, string(gz(t, page)))
	var files []job.NamedFile
	for i := range 20 {
		files = append(files, job.NamedFile{Name: fmt.Sprintf("docs/page%02d.md.gz", i), Content: twice})
	}
	limits := job.Limits{MaxFileBytes: 1 << 20, MaxJobBytes: 1 << 20, MaxFiles: 10000}
	out, err := job.Input{Limits: limits}.Files(files)
	if errors.Is(err, job.ErrTooLarge) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	// What the worker reads: the stored content, decompressed once more
	// by the pipeline when it is still a gzip stream.
	total := 0
	for _, f := range out {
		if f.Refuse != "" {
			continue
		}
		c := f.Content
		if len(c) >= 3 && c[0] == 0x1f && c[1] == 0x8b && c[2] == 8 {
			r, err := gzip.NewReader(bytes.NewReader(c))
			if err != nil {
				t.Fatal(err)
			}
			if c, err = io.ReadAll(r); err != nil {
				t.Fatal(err)
			}
		}
		total += len(c)
	}
	if int64(total) > limits.MaxJobBytes {
		t.Errorf("20 files gzipped twice (%d bytes each) are accepted under a %d-byte job limit and hand the pipeline %d bytes to extract",
			len(twice), limits.MaxJobBytes, total)
	}
}
