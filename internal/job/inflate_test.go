package job_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/job"
)

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGzippedFilesAreCountedDecompressed: a job's gzipped file is stored
// decompressed, so the limits bound what the worker extracts and embeds.
// A small one fits a small job; one that decompresses past MaxFileBytes is
// a refused document; files that together decompress past MaxJobBytes
// refuse the job; a corrupt stream is left for the pipeline to refuse.
func TestGzippedFilesAreCountedDecompressed(t *testing.T) {
	t.Parallel()
	page := "# Page\n\n" + strings.Repeat("Packs the files of a directory into one archive. ", 200) // ~10 KB
	limits := job.Limits{MaxFileBytes: 64 << 10, MaxJobBytes: 100 << 10, MaxFiles: 100}
	in := job.Input{BaseURI: "https://docs.example.com", Limits: limits}

	files, err := in.Files([]job.NamedFile{{Name: "a/page.md.gz", Content: gz(t, page)}})
	if err != nil {
		t.Fatalf("one small gzipped page in a 100 KiB job: %v", err)
	}
	if f := files[0]; f.Refuse != "" || string(f.Content) != page || f.ContentType != "text/markdown" || f.Size != int64(len(page)) {
		t.Errorf("stored %q type %q size %d refuse %q; want the page decompressed, as Markdown", f.Content[:min(20, len(f.Content))], f.ContentType, f.Size, f.Refuse)
	}

	big := strings.Repeat("x", 70<<10)
	files, err = in.Files([]job.NamedFile{{Name: "big.txt.gz", Content: gz(t, big)}, {Name: "page.md.gz", Content: gz(t, page)}})
	if err != nil {
		t.Fatalf("a gzipped file over MaxFileBytes beside a small one: %v", err)
	}
	if files[0].Refuse == "" || files[0].Content != nil || !strings.Contains(files[0].Refuse, "too large") {
		t.Errorf("70 KiB decompressed, 64 KiB per file: refuse %q, %d bytes kept; want a refused document", files[0].Refuse, len(files[0].Content))
	}
	if files[1].Refuse != "" || string(files[1].Content) != page {
		t.Errorf("the small page beside it: refuse %q", files[1].Refuse)
	}

	many := make([]job.NamedFile, 12) // 12 × 10 KB decompressed > 100 KiB
	for i := range many {
		many[i] = job.NamedFile{Name: "p" + strings.Repeat("a", i+1) + ".md.gz", Content: gz(t, page)}
	}
	if _, err := in.Files(many); !errors.Is(err, job.ErrTooLarge) {
		t.Errorf("twelve 10 KB pages gzipped to %d bytes each under a 100 KiB job limit: err = %v, want ErrTooLarge", len(many[0].Content), err)
	}

	corrupt := gz(t, page)
	corrupt[len(corrupt)-5] ^= 0xff // the CRC
	files, err = in.Files([]job.NamedFile{{Name: "c.md.gz", Content: corrupt}})
	if err != nil || !bytes.Equal(files[0].Content, corrupt) {
		t.Errorf("a corrupt gzip stream: err %v, content changed %v; want it stored as sent for the pipeline to refuse", err, !bytes.Equal(files[0].Content, corrupt))
	}
}
