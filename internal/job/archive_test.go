package job_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

type entry struct {
	name, body string
	link       string // a symbolic link to this target
	dir        bool
}

func tarball(t *testing.T, gz bool, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	var tw *tar.Writer
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(&buf)
		tw = tar.NewWriter(zw)
	} else {
		tw = tar.NewWriter(&buf)
	}
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.body)), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}
		switch {
		case e.link != "":
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, e.link, 0
		case e.dir:
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func zipfile(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		body := e.body
		switch {
		case e.link != "":
			h.SetMode(fs.ModeSymlink | 0o777)
			body = e.link
		case e.dir:
			h.Name = strings.TrimSuffix(e.name, "/") + "/"
			h.SetMode(fs.ModeDir | 0o755)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readArchive(in job.Input, b []byte) ([]job.File, error) {
	return in.Archive(bytes.NewReader(b), int64(len(b)))
}

var corpus = []entry{
	{name: "docs/", dir: true},
	{name: "docs/install.md", body: "# Install\n\nRun make setup to install the archive tools."},
	{name: "docs/guide/usage.html", body: "<html><head><title>Usage</title></head><body><h1>Usage</h1><p>Use the archive command.</p></body></html>"},
	{name: "./notes.txt", body: "Plain notes about archives."},
	{name: "docs/logo.png", body: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"},
	// A text file named as a Word file is not one: skipped, as an upload
	// and `ragd ingest` refuse it.
	{name: "docs/report.docx", body: "Plain text in a file named report.docx."},
}

// A tar.gz and a zip job each store every readable entry under base URI +
// entry path and skip the one ragd does not read.
func TestArchiveJobs(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := f.service(time.Minute)
	ctx := operator(context.Background())
	for _, tc := range []struct {
		name string
		data []byte
	}{{"tar.gz", tarball(t, true, corpus...)}, {"tar", tarball(t, false, corpus...)}, {"zip", zipfile(t, corpus...)}} {
		base := "https://docs.test/" + tc.name
		files, err := readArchive(job.Input{BaseURI: base + "/", Metadata: map[string]any{"kind": tc.name}}, tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		j, err := s.Create(ctx, f.tn, job.OriginAPI, "corpus."+tc.name, files)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		drain(t, s)
		got := map[string]string{}
		for _, it := range items(t, s, f.tn, j.ID) {
			got[it.SourceURI] = it.Stage
		}
		want := map[string]string{base + "/docs/install.md": job.StageStored, base + "/docs/guide/usage.html": job.StageStored,
			base + "/notes.txt": job.StageStored, base + "/docs/logo.png": job.StageSkipped, base + "/docs/report.docx": job.StageSkipped}
		if len(got) != len(want) {
			t.Errorf("%s: items %v, want %v", tc.name, got, want)
		}
		for uri, stage := range want {
			if got[uri] != stage {
				t.Errorf("%s: %s is %q, want %s", tc.name, uri, got[uri], stage)
			}
		}
		for uri, stage := range want {
			if docs, _, chunks := docState(t, f.tn, uri); (stage == job.StageStored) != (docs == 1 && chunks > 0) {
				t.Errorf("%s: %s stored %d documents, %d chunks", tc.name, uri, docs, chunks)
			}
		}
	}
}

// rawZip is a zip whose one entry declares declared bytes but holds body.
func rawZip(t *testing.T, name string, body []byte, declared uint64) []byte {
	t.Helper()
	var comp bytes.Buffer
	fw, _ := flate.NewWriter(&comp, flate.BestCompression)
	fw.Write(body)
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(body),
		CompressedSize64: uint64(comp.Len()), UncompressedSize64: declared})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(comp.Bytes())
	zw.Close()
	return buf.Bytes()
}

func TestArchiveRefusals(t *testing.T) {
	t.Parallel()
	bomb := bytes.Repeat([]byte("a"), 8<<20)
	lie := bytes.Repeat([]byte("lorem ipsum "), 1000)
	for _, tc := range []struct {
		name string
		data []byte
		lim  job.Limits
		want error
		msg  string
	}{
		{"tar ..", tarball(t, true, entry{name: "docs/../../etc/passwd.txt", body: "x"}), job.Limits{}, job.ErrInvalid, "leaves the archive"},
		{"tar absolute", tarball(t, false, entry{name: "/etc/motd.txt", body: "x"}), job.Limits{}, job.ErrInvalid, "absolute"},
		{"tar symlink", tarball(t, true, entry{name: "docs/a.md", link: "/etc/passwd"}), job.Limits{}, job.ErrInvalid, "links are refused"},
		{"zip ..", zipfile(t, entry{name: "../a.md", body: "x"}), job.Limits{}, job.ErrInvalid, "leaves the archive"},
		{"zip backslash ..", zipfile(t, entry{name: `docs\..\..\a.md`, body: "x"}), job.Limits{}, job.ErrInvalid, "leaves the archive"},
		{"zip drive", zipfile(t, entry{name: `C:\boot.txt`, body: "x"}), job.Limits{}, job.ErrInvalid, "absolute"},
		{"zip symlink", zipfile(t, entry{name: "a.md", link: "/etc/passwd"}), job.Limits{}, job.ErrInvalid, "symbolic link"},
		{"zip bomb ratio", zipfile(t, entry{name: "bomb.txt", body: string(bomb)}), job.Limits{}, job.ErrInvalid, "zip bomb"},
		{"zip size lie", rawZip(t, "lie.txt", lie, 100), job.Limits{}, job.ErrInvalid, "not the 100 bytes it declares"},
		{"zip total", zipfile(t, entry{name: "a.txt", body: "0123456789"}, entry{name: "b.txt", body: "0123456789"}),
			job.Limits{MaxJobBytes: 15}, job.ErrTooLarge, "uncompressed"},
		{"tar total", tarball(t, true, entry{name: "a.bin", body: "0123456789"}, entry{name: "b.bin", body: "0123456789"}),
			job.Limits{MaxJobBytes: 15}, job.ErrTooLarge, "uncompressed"},
		{"zip entries", zipfile(t, entry{name: "a.txt"}, entry{name: "b.txt"}, entry{name: "c.txt"}), job.Limits{MaxFiles: 2}, job.ErrTooLarge, "entries"},
		{"tar entries", tarball(t, false, entry{name: "a.txt"}, entry{name: "b.txt"}, entry{name: "c.txt"}), job.Limits{MaxFiles: 2}, job.ErrTooLarge, "entries"},
		{"not an archive", []byte("just some text, not an archive at all"), job.Limits{}, job.ErrInvalid, "not a zip, tar or tar.gz"},
	} {
		_, err := readArchive(job.Input{Limits: tc.lim}, tc.data)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: err = %v, want %v containing %q", tc.name, err, tc.want, tc.msg)
		}
	}
	// An entry over the per-document limit is refused alone; the rest proceed.
	files, err := readArchive(job.Input{Limits: job.Limits{MaxFileBytes: 5}},
		zipfile(t, entry{name: "big.txt", body: "0123456789"}, entry{name: "ok.txt", body: "0123"}))
	if err != nil || len(files) != 2 || !strings.Contains(files[0].Refuse, "too large") || files[0].Content != nil || files[0].Size != 10 ||
		files[1].Refuse != "" || string(files[1].Content) != "0123" {
		t.Fatalf("per-entry limit: %+v, %v", files, err)
	}
	// Uploaded file names are checked the same way.
	if _, err := (job.Input{}).Files([]job.NamedFile{{Name: "../../x.md", Content: []byte("x")}}); !errors.Is(err, job.ErrInvalid) {
		t.Fatalf("a traversing upload name: %v", err)
	}
}

// A zip of real PDF and DOCX files (internal/extract's test files) is
// ingested through one job: the documents are typed from their bytes by the
// pipeline, the PDF's chunks carry their pages, and a PDF without a text
// layer fails with the reason.
func TestArchiveJobOfPDFAndDOCX(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := f.service(time.Minute)
	ctx := operator(context.Background())
	var entries []entry
	for _, name := range []string{"manual.pdf", "report.docx", "scan.pdf"} {
		b, err := os.ReadFile(filepath.Join("..", "extract", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, entry{name: "docs/" + name, body: string(b)})
	}
	files, err := readArchive(job.Input{BaseURI: "https://office.test"}, zipfile(t, entries...))
	if err != nil {
		t.Fatal(err)
	}
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "office.zip", files)
	if err != nil {
		t.Fatal(err)
	}
	drain(t, s)
	its := items(t, s, f.tn, j.ID)
	if its[0].Stage != job.StageStored || its[1].Stage != job.StageStored || its[2].Stage != job.StageFailed || !strings.Contains(its[2].Error, "no text layer") {
		t.Fatalf("items %+v: want the PDF and DOCX stored, the scan failed with a reason", its)
	}
	var paged, chunks int
	err = store.InTenant(ctx, testdb.App(t), f.tn.ID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE c.page_start >= 1), count(*) FROM chunks c
			JOIN documents d ON d.id = c.document_id WHERE d.source_uri = 'https://office.test/docs/manual.pdf'`).Scan(&paged, &chunks)
	})
	if err != nil || chunks == 0 || paged != chunks {
		t.Fatalf("manual.pdf: %d of %d chunks with pages (%v)", paged, chunks, err)
	}
}

// TestIntakeBudget: the bytes of jobs' files held in memory at once are
// bounded across jobs: a second job whose entries do not fit beside the
// first one's is refused with ErrBusy (nothing read past the refusal), and
// fits once the first has released its bytes; without a budget nothing is
// bounded beyond Limits.
func TestIntakeBudget(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("budget ", 10) // 70 bytes
	one := []entry{{name: "a.md", body: body}}
	two := []entry{{name: "b.md", body: body}, {name: "c.md", body: body}}
	budget := job.NewIntakeBudget(150)
	for _, mk := range []func(...entry) []byte{
		func(e ...entry) []byte { return tarball(t, true, e...) },
		func(e ...entry) []byte { return zipfile(t, e...) },
	} {
		first := budget.Intake()
		if _, err := readArchive(job.Input{Intake: first}, mk(one...)); err != nil {
			t.Fatalf("first job: %v", err)
		}
		second := budget.Intake()
		if _, err := readArchive(job.Input{Intake: second}, mk(two...)); !errors.Is(err, job.ErrBusy) {
			t.Errorf("second job beside the first: err = %v, want ErrBusy", err)
		}
		second.Release()
		first.Release()
		third := budget.Intake()
		files, err := readArchive(job.Input{Intake: third}, mk(two...))
		if err != nil || len(files) != 2 {
			t.Errorf("after the first released: %d files, %v", len(files), err)
		}
		third.Release()
		if files, err := readArchive(job.Input{}, mk(two...)); err != nil || len(files) != 2 {
			t.Errorf("no budget: %d files, %v", len(files), err)
		}
	}
}

// An entry's path becomes a URL under the base URI: what a URI's path
// cannot hold is percent-encoded ("release notes.md"), in tar and zip
// alike; without a base URI the source_uri is the path as it is.
func TestArchiveEntryURIsAreEscaped(t *testing.T) {
	t.Parallel()
	entries := []entry{{name: "guide/release notes #2.md", body: "# Release notes\n\nWhat changed."}}
	for name, data := range map[string][]byte{"tar": tarball(t, false, entries...), "zip": zipfile(t, entries...)} {
		files, err := readArchive(job.Input{BaseURI: "https://docs.test/v1"}, data)
		if err != nil || len(files) != 1 {
			t.Fatalf("%s: %d files, %v", name, len(files), err)
		}
		if want := "https://docs.test/v1/guide/release%20notes%20%232.md"; files[0].SourceURI != want {
			t.Errorf("%s: source_uri %q, want %q", name, files[0].SourceURI, want)
		}
		files, err = readArchive(job.Input{}, data)
		if err != nil || len(files) != 1 || files[0].SourceURI != "guide/release notes #2.md" {
			t.Errorf("%s without a base URI: %+v, %v; want the path as it is", name, files, err)
		}
	}
}
