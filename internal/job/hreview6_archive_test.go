package job_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/job"
)

// TestZipRefusedEntriesCountTheirMetadata (review h-review6): 85cde86
// counts a job's metadata toward MaxJobBytes "once per document it is
// stored with" (docs/SECURITY.md), since every item row stores a copy.
// A zip entry declaring more than MaxFileBytes becomes a refused item
// (job.File.Refuse) that still carries the job's metadata (Create stores
// f.Metadata for every stage), but the zip reader `continue`s past it
// before `total += declared + meta`. Entries that only declare a large
// size cost about 100 bytes of central directory each and no data: 200
// of them with 60 KB of metadata store 12 MB of metadata under a 1 MB
// job limit (with the defaults, 10,000 × 64 KiB = 640 MB from a ~1 MB
// request). The tar reader counts such entries (h.Size + meta) and
// refuses the job.
func TestZipRefusedEntriesCountTheirMetadata(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range 200 {
		// Declared 1 MiB, nothing stored: refused by size without a read.
		if _, err := zw.CreateRaw(&zip.FileHeader{Name: fmt.Sprintf("big%03d.md", i), Method: zip.Store,
			UncompressedSize64: 1 << 20, CompressedSize64: 0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	meta := map[string]any{"notes": strings.Repeat("m", 60<<10)}
	mb, _ := json.Marshal(meta)
	limits := job.Limits{MaxFileBytes: 1000, MaxJobBytes: 1 << 20, MaxFiles: 10000}
	files, err := readArchive(job.Input{Limits: limits, Metadata: meta}, buf.Bytes())
	if errors.Is(err, job.ErrTooLarge) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for _, f := range files {
		if f.Metadata != nil {
			stored += len(mb)
		}
	}
	if int64(stored) > limits.MaxJobBytes {
		t.Errorf("a %d-byte zip of %d refused entries is accepted and stores %d bytes of metadata, over MaxJobBytes %d",
			buf.Len(), len(files), stored, limits.MaxJobBytes)
	}
}
