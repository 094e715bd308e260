package job_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/job"
)

// TestTarDirectoryEntriesCountTowardTheLimits (breaker h-break6): docs/SECURITY.md
// says a tar.gz with more than RAGD_INGEST_JOB_MAX_FILES entries is refused
// ("for a tar.gz every entry counts, since it is decompressed to reach the
// next"), and the zip reader counts every entry, directories included
// (len(zr.File)). The tar reader skips directory (and pax global header)
// entries before counting, so their number is unbounded: a 4.4 MB tar.gz of
// 2,000,000 identical directory headers (976 MB of headers) is decompressed
// and parsed to the end — 12 s of one core per request, with no context check,
// for a body the route accepts up to 256 MiB (about 12 minutes of CPU from
// one editor request). Here 5,000 directory entries and one file, with a
// limit of 100 entries, are accepted.
func TestTarDirectoryEntriesCountTowardTheLimits(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for range 5000 {
		if err := tw.WriteHeader(&tar.Header{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: time.Unix(0, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	body := []byte("# One\n\nOne document after the directories.")
	if err := tw.WriteHeader(&tar.Header{Name: "d/one.md", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body)), ModTime: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	tw.Write(body)
	tw.Close()
	gz.Close()

	files, err := readArchive(job.Input{Limits: job.Limits{MaxFiles: 100}}, buf.Bytes())
	if !errors.Is(err, job.ErrTooLarge) {
		t.Fatalf("a %d-byte tar.gz of 5,001 entries with MaxFiles 100: %d files, err = %v; want ErrTooLarge (as a zip of as many entries is)",
			buf.Len(), len(files), err)
	}
}
