package ingest

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
)

// TestGzippedFilesAreReadDecompressed: Debian ships documentation
// compressed (policy.pdf.gz, NEWS.txt.gz). Walk lists such a file as its
// inner type, and the pipeline reads it decompressed, at most its size
// limit (a small .gz can hold gigabytes); a .gz that is not gzip is
// unreadable, and one without a supported inner type is left out.
func TestGzippedFilesAreReadDecompressed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gz := func(name string, body []byte) {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(body)
		w.Close()
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gz("NEWS.txt.gz", []byte("Version 2.0 adds widgets."))
	gz("big.md.gz", bytes.Repeat([]byte("a"), 2000))
	gz("changelog.Debian.gz", []byte("changes"))
	if err := os.WriteFile(filepath.Join(dir, "fake.txt.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, fails, err := Walk([]string{dir}, WalkOptions{})
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f.Path)+"="+f.ContentType)
	}
	if err != nil || len(fails) != 0 || strings.Join(names, " ") != "NEWS.txt.gz=text/plain big.md.gz=text/markdown fake.txt.gz=text/plain" {
		t.Errorf("Walk: %q, failures %+v, %v", names, fails, err)
	}
	p := &Pipeline{maxBytes: 1000}
	if data, err := p.readFile(filepath.Join(dir, "NEWS.txt.gz")); err != nil || string(data) != "Version 2.0 adds widgets." {
		t.Errorf("NEWS.txt.gz read as %q, %v", data, err)
	}
	if _, err := p.readFile(filepath.Join(dir, "big.md.gz")); !errors.Is(err, ErrTooLarge) {
		t.Errorf("2,000 bytes decompressed against a 1,000-byte limit: %v, want ErrTooLarge", err)
	}
	if _, err := p.readFile(filepath.Join(dir, "fake.txt.gz")); !errors.Is(err, extract.ErrUnreadable) {
		t.Errorf("a .gz that is not gzip: %v, want ErrUnreadable", err)
	}
}
