package job

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits bound what one job may submit. Zero fields take the defaults.
type Limits struct {
	// MaxFileBytes is the largest document (default DefaultMaxFileBytes,
	// the pipeline's limit); a larger file or archive entry fails with the
	// reason, the rest of the job proceeds.
	MaxFileBytes int64
	// MaxJobBytes bounds the bytes a job stores: the files, or an archive's
	// entries uncompressed (default DefaultMaxJobBytes;
	// RAGD_INGEST_JOB_MAX_BYTES). Above it the job is refused (ErrTooLarge).
	MaxJobBytes int64
	// MaxFiles bounds the files of a job or the entries of an archive
	// (default DefaultMaxFiles; RAGD_INGEST_JOB_MAX_FILES).
	MaxFiles int
	// MaxRatio bounds an archive entry's uncompressed size over its
	// compressed size, for entries above 1 MiB (default DefaultMaxRatio):
	// text compresses 3-10×, a zip bomb thousands of times.
	MaxRatio float64
}

// Defaults of Limits.
const (
	DefaultMaxFileBytes = 10 << 20
	DefaultMaxJobBytes  = 256 << 20
	DefaultMaxFiles     = 10000
	DefaultMaxRatio     = 100
	// ratioFloor: entries up to this size are not ratio-checked (a small
	// file of repeated characters compresses far beyond any bound).
	ratioFloor = 1 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultMaxFileBytes
	}
	if l.MaxJobBytes <= 0 {
		l.MaxJobBytes = DefaultMaxJobBytes
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.MaxRatio <= 0 {
		l.MaxRatio = DefaultMaxRatio
	}
	return l
}

// Input is what a job's files share: the base URI their source_uri is made
// from, the metadata every document gets, and the limits.
type Input struct {
	// BaseURI, when set (an absolute URL), makes source_uri = BaseURI + "/"
	// + the file's path, escaped as a URL's path (ingest.JoinURI);
	// otherwise source_uri is the path itself.
	BaseURI string
	// Metadata is every document's metadata (nil = none).
	Metadata map[string]any
	Limits   Limits
	// Intake, when set, holds the bytes of every entry read into memory
	// (see Intake); nil reads without a bound beyond Limits.
	Intake *Intake
}

// SourceURI returns the source_uri of a file or archive entry named name:
// BaseURI + "/" + the cleaned path, escaped (ingest.JoinURI). Errors (ErrInvalid): a path that is
// absolute ("/x", "C:\x"), climbs out ("../x"), is empty, or holds control
// characters or invalid UTF-8; backslashes count as separators.
func (in Input) SourceURI(name string) (string, error) {
	if !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl) {
		return "", fmt.Errorf("%w: path %q is not UTF-8 text without control characters", ErrInvalid, name)
	}
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") || (len(n) >= 2 && n[1] == ':') {
		return "", fmt.Errorf("%w: path %q is absolute", ErrInvalid, name)
	}
	for _, seg := range strings.Split(n, "/") {
		if seg == ".." {
			return "", fmt.Errorf("%w: path %q leaves the archive (..)", ErrInvalid, name)
		}
	}
	n = strings.TrimPrefix(path.Clean(n), "./")
	if n == "" || n == "." {
		return "", fmt.Errorf("%w: empty path", ErrInvalid)
	}
	if in.BaseURI == "" {
		return n, nil
	}
	return ingest.JoinURI(in.BaseURI, n), nil
}

// CheckBaseURI returns ErrInvalid unless base is empty or an absolute URL.
func CheckBaseURI(base string) error {
	if base == "" {
		return nil
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" {
		return fmt.Errorf("%w: base_uri %q is not an absolute URL", ErrInvalid, base)
	}
	return nil
}

// file makes the File of one file or entry: refused when over
// MaxFileBytes; its type is the one its name's extension declares, else
// left to the pipeline, which detects it from the bytes (extract.Detect)
// and skips what it does not read.
// metadataBytes is the size of the metadata every document of the job
// stores a copy of: it counts toward MaxJobBytes once per document (64 KiB
// of metadata over 200 three-byte entries stored 12 MB).
func (in Input) metadataBytes() int64 {
	if len(in.Metadata) == 0 {
		return 0
	}
	b, err := json.Marshal(in.Metadata)
	if err != nil {
		return 0
	}
	return int64(len(b))
}

func (in Input) file(uri string, content []byte, size int64) File {
	f := File{SourceURI: uri, Content: content, Metadata: in.Metadata, Size: size}
	if t, err := extract.TypeFromPath(uri); err == nil {
		// The name's extension declares the type, as for an upload and
		// `ragd ingest`: a text file named b.docx is refused as not the
		// DOCX it says it is, by every path alike.
		f.ContentType = t
	}
	if size > in.Limits.MaxFileBytes {
		f.Refuse, f.Content = fmt.Sprintf("document too large: %d bytes, the limit is %d", size, in.Limits.MaxFileBytes), nil
	}
	return f
}

// NamedFile is one uploaded file: its name (a relative path), content and
// size (a file over MaxFileBytes may come with its size alone).
type NamedFile struct {
	Name    string
	Content []byte
	Size    int64
}

// Files makes a job's files from uploaded files. Errors: ErrInvalid (an
// unsafe name), ErrTooLarge (more than MaxFiles, or MaxJobBytes in total).
func (in Input) Files(files []NamedFile) ([]File, error) {
	in.Limits = in.Limits.withDefaults()
	if len(files) > in.Limits.MaxFiles {
		return nil, fmt.Errorf("%w: %d files, the limit is %d", ErrTooLarge, len(files), in.Limits.MaxFiles)
	}
	var total int64
	meta := in.metadataBytes()
	out := make([]File, 0, len(files))
	for _, nf := range files {
		uri, err := in.SourceURI(nf.Name)
		if err != nil {
			return nil, err
		}
		size := max(nf.Size, int64(len(nf.Content)))
		total += size + meta
		if total > in.Limits.MaxJobBytes {
			return nil, fmt.Errorf("%w: more than %d bytes in total", ErrTooLarge, in.Limits.MaxJobBytes)
		}
		f := in.file(uri, nf.Content, size)
		if err := in.inflate(&f, &total); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// inflate replaces a gzipped file's content ("page.md.gz": Debian ships
// documentation so, and the pipeline reads it decompressed) with what it
// holds, as it is read in: MaxFileBytes and MaxJobBytes bound what the
// worker extracts and embeds, not the compressed bytes (a 5 KB zip of
// twenty gzipped pages held 4 MB of text under a 1 MiB job limit). total
// grows by what decompression adds; the intake budget holds it as it is
// read. A decompressed file over MaxFileBytes is refused as too large; a
// stream that is not valid gzip is left as it came, for the pipeline to
// refuse as unreadable.
//
// A stream that decompresses to another is decompressed again (the
// pipeline reads what a gzip stream holds, whatever it is), at most
// maxGzipLayers times: a file gzipped twice was counted by its inner
// stream's bytes.
func (in Input) inflate(f *File, total *int64) error {
	for layer := 0; f.Refuse == "" && ingest.GzipStream(f.Content); layer++ {
		if layer == maxGzipLayers {
			*total -= int64(len(f.Content))
			f.Refuse, f.Content = fmt.Sprintf("gzip streams nested more than %d deep", maxGzipLayers), nil
			return nil
		}
		changed, err := in.inflateOnce(f, total)
		if err != nil || !changed {
			return err
		}
	}
	return nil
}

// maxGzipLayers bounds how many gzip streams inside one another a file
// may be.
const maxGzipLayers = 3

// inflateOnce replaces f's content, a gzip stream, with what it holds
// (inflate); changed is false when the stream is corrupt and left as it
// came.
func (in Input) inflateOnce(f *File, total *int64) (changed bool, _ error) {
	zr, err := gzip.NewReader(bytes.NewReader(f.Content))
	if err != nil {
		return false, nil
	}
	r := io.LimitReader(zr, in.Limits.MaxFileBytes+1)
	base := *total - int64(len(f.Content)) // the job without this file's bytes
	var buf bytes.Buffer
	held := int64(len(f.Content)) // held of the budget already
	for {
		if grow := int64(buf.Len()) + inflateStep - held; grow > 0 {
			if err := in.Intake.Hold(grow); err != nil {
				return false, err
			}
			held += grow
		}
		_, err := io.CopyN(&buf, r, inflateStep)
		if base+int64(min(buf.Len(), int(in.Limits.MaxFileBytes))) > in.Limits.MaxJobBytes {
			return false, fmt.Errorf("%w: more than %d bytes decompressed", ErrTooLarge, in.Limits.MaxJobBytes)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return false, nil // corrupt: the pipeline refuses it as unreadable
		}
	}
	if int64(buf.Len()) > in.Limits.MaxFileBytes {
		// A refused document stores none of its bytes.
		*total = base
		f.Refuse, f.Content = fmt.Sprintf("document too large: more than %d bytes decompressed, the limit is %d", in.Limits.MaxFileBytes, in.Limits.MaxFileBytes), nil
		return true, nil
	}
	// The budget keeps what it held until the job is stored (a bound on
	// memory, not a count).
	*total = base + int64(buf.Len())
	f.Content = buf.Bytes()
	f.Size = int64(len(f.Content))
	return true, nil
}

// inflateStep is how much a gzipped file's decompression reads (and holds
// of the intake budget) at a time.
const inflateStep = 1 << 20

// Archive makes a job's files from a zip, tar or gzip-compressed tar archive
// (told apart by their first bytes), one per regular entry, in archive
// order; directories are passed over. Refused with ErrInvalid: an entry path
// that is absolute or climbs out with "..", a symbolic or hard link, a
// device or pipe, a zip entry larger than it declared or compressed beyond
// MaxRatio, an archive that does not parse. Refused with ErrTooLarge: more
// than MaxFiles entries, or more than MaxJobBytes uncompressed (for a tar,
// every entry counts, as it is decompressed to reach the next). An entry
// over MaxFileBytes becomes a refused document, whose bytes are not stored;
// one that is no document (skipBuildFiles: a type ragd does not read, a
// Sphinx build's copies, assets and index pages) is skipped.
func (in Input) Archive(r io.ReaderAt, size int64) ([]File, error) {
	in.Limits = in.Limits.withDefaults()
	head := make([]byte, 512)
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return skipBuildFiles(in.zip(r, size))
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		gz, err := gzip.NewReader(io.NewSectionReader(r, 0, size))
		if err != nil {
			return nil, fmt.Errorf("%w: not a gzip stream: %v", ErrInvalid, err)
		}
		defer gz.Close()
		return skipBuildFiles(in.tar(bufio.NewReader(gz)))
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return skipBuildFiles(in.tar(io.NewSectionReader(r, 0, size)))
	}
	return nil, fmt.Errorf("%w: the archive is not a zip, tar or tar.gz file", ErrInvalid)
}

// skipBuildFiles marks the entries of an archive that are no documents as
// skipped, by the rules a `ragd ingest` walk applies to a directory
// (ingest.BuildFileSkip): a Sphinx build's _sources/, _static/ and
// _modules/, its index and search pages (a type ragd does not read was
// skipped unread: skipUnread). Their bytes are not stored.
func skipBuildFiles(files []File, err error) ([]File, error) {
	if err != nil {
		return nil, err
	}
	names := make(map[string]bool, len(files))
	heads := make(map[string][]byte, len(files))
	for _, f := range files {
		names[f.entry] = true
		// Its directories too, each with a trailing "/" (BuildFileSkip).
		for d := path.Dir(f.entry); d != "." && d != "/" && !names[d+"/"]; d = path.Dir(d) {
			names[d+"/"] = true
		}
		if f.Content != nil {
			heads[f.entry] = f.Content[:min(len(f.Content), ingest.SphinxMarkWithin)]
		} else {
			heads[f.entry] = f.head
		}
	}
	has := func(rel string) bool { return names[rel] }
	head := func(rel string) []byte { return heads[rel] }
	for i := range files {
		f := &files[i]
		if f.Skip != "" || f.Fail != "" {
			continue
		}
		// A file that is no document is skipped whatever its size (a
		// build's large searchindex.js or video is not a refused document).
		if reason := ingest.BuildFileSkip(f.entry, has, head); reason != "" {
			f.Skip, f.Refuse, f.Size, f.Content = reason, "", max(f.Size, int64(len(f.Content))), nil
		}
	}
	return files, nil
}

// readHead returns the first ingest.SphinxMarkWithin bytes r yields (what
// it could read).
func readHead(r io.Reader) []byte {
	b, _ := io.ReadAll(io.LimitReader(r, ingest.SphinxMarkWithin))
	return b
}

// skipUnread marks an entry whose name is of a type ragd does not read
// (a build's scripts, stylesheets, images, videos) as skipped before its
// bytes are read: they are neither held in memory nor stored. It reports
// whether it did. (Whether a page is a Sphinx build's copy depends on
// entries that may come later: skipBuildFiles decides that.)
func skipUnread(f *File) bool {
	if _, err := extract.TypeFromPath(f.entry); err != nil {
		f.Skip, f.Refuse, f.Content = err.Error(), "", nil
		return true
	}
	return false
}

// entryPath is an archive entry's name as a path in the archive's tree
// ("./docs/a.html" and "docs/a.html" alike).
func entryPath(name string) string {
	return strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(name, "\\", "/")), "/")
}

func (in Input) zip(r io.ReaderAt, size int64) ([]File, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%w: not a readable zip archive: %v", ErrInvalid, err)
	}
	if len(zr.File) > in.Limits.MaxFiles {
		return nil, fmt.Errorf("%w: %d archive entries, the limit is %d", ErrTooLarge, len(zr.File), in.Limits.MaxFiles)
	}
	var total int64
	meta := in.metadataBytes()
	var out []File
	for _, e := range zr.File {
		mode := e.Mode()
		if mode.IsDir() {
			continue
		}
		if mode&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%w: entry %q is a symbolic link; links are refused", ErrInvalid, e.Name)
		}
		if !mode.IsRegular() {
			return nil, fmt.Errorf("%w: entry %q is not a regular file", ErrInvalid, e.Name)
		}
		uri, err := in.SourceURI(e.Name)
		if err != nil {
			return nil, err
		}
		declared := e.UncompressedSize64
		f := in.file(uri, nil, int64(min(declared, 1<<62)))
		f.entry = entryPath(e.Name)
		if skipUnread(&f) {
			// Not decompressed: only the row it is recorded in counts.
			if total += meta; total > in.Limits.MaxJobBytes {
				return nil, fmt.Errorf("%w: more than %d bytes with the metadata every document stores", ErrTooLarge, in.Limits.MaxJobBytes)
			}
			out = append(out, f)
			continue
		}
		if f.Refuse != "" {
			// Its head tells a build's generated page, which is skipped
			// whatever its size (skipBuildFiles); a read error leaves it
			// refused.
			if rc, err := e.Open(); err == nil {
				f.head = readHead(rc)
				rc.Close()
			}
			// A refused document's row still stores the job's metadata.
			if total += meta; total > in.Limits.MaxJobBytes {
				return nil, fmt.Errorf("%w: more than %d bytes with the metadata every document stores", ErrTooLarge, in.Limits.MaxJobBytes)
			}
			out = append(out, f)
			continue
		}
		if declared > ratioFloor && float64(declared) > in.Limits.MaxRatio*float64(max(e.CompressedSize64, 1)) {
			return nil, fmt.Errorf("%w: entry %q expands %d bytes to %d (more than %.0f×): refused as a zip bomb",
				ErrInvalid, e.Name, e.CompressedSize64, declared, in.Limits.MaxRatio)
		}
		if total += int64(declared) + meta; total > in.Limits.MaxJobBytes {
			return nil, fmt.Errorf("%w: more than %d bytes uncompressed", ErrTooLarge, in.Limits.MaxJobBytes)
		}
		if err := in.Intake.Hold(int64(declared)); err != nil {
			return nil, err
		}
		rc, err := e.Open()
		if err != nil {
			return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, e.Name, err)
		}
		// Exactly the declared size, read into one buffer of that size (no
		// growth copies): the declared sizes were what the limits checked,
		// and a longer entry is a lie (archive/zip itself fails a read past
		// the declared size with ErrFormat, and a mismatch at the end with
		// ErrChecksum).
		data := make([]byte, declared)
		_, err = io.ReadFull(rc, data)
		if err == nil {
			// The end must come now, checksum checked.
			var extra [1]byte
			if n, rerr := rc.Read(extra[:]); n > 0 {
				err = zip.ErrFormat
			} else if !errors.Is(rerr, io.EOF) {
				err = rerr
			}
		}
		rc.Close()
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) && declared > 0 || errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrChecksum) {
			return nil, fmt.Errorf("%w: entry %q is not the %d bytes it declares (or is corrupt): refused", ErrInvalid, e.Name, declared)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, e.Name, err)
		}
		f.Content = data
		if err := in.inflate(&f, &total); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func (in Input) tar(r io.Reader) ([]File, error) {
	tr := tar.NewReader(r)
	var total int64
	meta := in.metadataBytes()
	var out []File
	entries := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: not a readable tar archive: %v", ErrInvalid, err)
		}
		// Every entry counts, directories too, as a zip's do: a small
		// compressed stream of millions of directory headers held a CPU
		// for minutes.
		if entries++; entries > in.Limits.MaxFiles {
			return nil, fmt.Errorf("%w: more than %d archive entries", ErrTooLarge, in.Limits.MaxFiles)
		}
		switch h.Typeflag {
		case tar.TypeDir, tar.TypeXGlobalHeader:
			continue
		case tar.TypeSymlink, tar.TypeLink:
			return nil, fmt.Errorf("%w: entry %q is a link to %q; links are refused", ErrInvalid, h.Name, h.Linkname)
		case tar.TypeReg: // the reader reports the old TypeRegA as TypeReg
		default:
			return nil, fmt.Errorf("%w: entry %q is not a regular file", ErrInvalid, h.Name)
		}
		uri, err := in.SourceURI(h.Name)
		if err != nil {
			return nil, err
		}
		if total += h.Size + meta; total > in.Limits.MaxJobBytes {
			return nil, fmt.Errorf("%w: more than %d bytes uncompressed", ErrTooLarge, in.Limits.MaxJobBytes)
		}
		f := in.file(uri, nil, h.Size)
		f.entry = entryPath(h.Name)
		if f.Refuse != "" && f.Skip == "" {
			f.head = readHead(tr) // as for a zip's (the rest is skipped by Next)
		}
		if !skipUnread(&f) && f.Refuse == "" {
			if err := in.Intake.Hold(h.Size); err != nil {
				return nil, err
			}
			// One buffer of the entry's size: no growth copies.
			f.Content = make([]byte, h.Size)
			if _, err := io.ReadFull(tr, f.Content); err != nil {
				return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, h.Name, err)
			}
			if err := in.inflate(&f, &total); err != nil {
				return nil, err
			}
		}
		out = append(out, f)
	}
}
