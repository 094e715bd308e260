package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// File is one file found by Walk.
type File struct {
	Path        string // path on disk
	SourceURI   string // BaseURI + path relative to its root, or file:// + absolute path, escaped (EscapePath)
	ContentType string
	// Metadata is stored with the document (WalkOptions.Metadata); nil
	// stores none.
	Metadata map[string]any
	// Access and SetAccess are the document's access list
	// (WalkOptions.Access; Document.Access).
	Access    []string
	SetAccess bool
}

// Kind says why a file was not ingested. Only KindFailed is an error: a
// run whose files were merely skipped or refused succeeded.
type Kind string

// Kinds of files not ingested.
const (
	// KindSkipped: not a document ragd reads — an unsupported type (by
	// its name or its bytes: binary content), an HTML page that only
	// redirects to another or whose only text is the site's chrome, or a
	// symbolic link leaving the ingested tree.
	KindSkipped Kind = "skipped"
	// KindRefused: a policy refused it — over the size limit, past the
	// tenant's storage quota, or an invalid source_uri.
	KindRefused Kind = "refused"
	// KindFailed: an error — unreadable, not valid UTF-8 in any charset it
	// declares, no text in it, or a database or embedding failure.
	KindFailed Kind = "failed"
)

// KindOf classifies the error ingesting a file returned.
func KindOf(err error) Kind {
	switch {
	case errors.Is(err, extract.ErrUnsupportedType), errors.Is(err, extract.ErrBinary),
		errors.Is(err, extract.ErrTypeMismatch), errors.Is(err, extract.ErrRedirect), errors.Is(err, extract.ErrChromeOnly),
		errors.Is(err, extract.ErrLinksOnly), errors.Is(err, extract.ErrTitleOnly):
		return KindSkipped
	case errors.Is(err, ErrTooLarge), errors.Is(err, ErrInvalidSourceURI), errors.Is(err, ErrQuotaExceeded), errors.Is(err, ErrInvalidTitle):
		return KindRefused
	}
	return KindFailed
}

// Failure is a file or document that was not ingested, with the reason and
// whether it was skipped, refused or failed.
type Failure struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Kind   Kind   `json:"kind"`
	// Files is how many files one entry stands for when it is more than
	// one (a directory's text sources of its HTML pages, skipped
	// together); 0 otherwise.
	Files int `json:"files,omitempty"`
	// Redirect marks an HTML page skipped because it only redirects to
	// another (extract.ErrRedirect): a manual split into pages can have
	// more of them than pages (144 of the zsh manual's 186 files).
	Redirect bool `json:"redirect,omitempty"`
}

// WalkOptions selects files.
type WalkOptions struct {
	// Include and Exclude are doublestar globs matched against the path
	// relative to each root ("**/*.html"); empty Include = every supported file.
	Include, Exclude []string
	// BaseURI, when set, makes source_uri = BaseURI + "/" + relative path
	// (e.g. the public URL of the pages).
	BaseURI string
	// Metadata, when set, is every file's document metadata (a JSON object
	// that search's metadata filter can select).
	Metadata map[string]any
	// Access, when SetAccess, is every file's document access list (empty:
	// everyone in the tenant); without SetAccess a re-ingested document
	// keeps its list.
	Access    []string
	SetAccess bool
	// Ignored, when non-nil, receives the number of files of each
	// extension (".png", "" for none) that Walk leaves out silently: the
	// stylesheets and images of a documentation tree, too many to list
	// file by file, but counted so the run says it passed over them.
	Ignored map[string]int
	// Excluded, when non-nil, receives the number of supported files the
	// Exclude globs left out, those under an excluded directory included.
	Excluded *int
	// Linked, when non-nil, receives the source_uris of the files left out
	// as copies of listed ones (symbolic links to files listed under their
	// own names, the text sources of HTML pages: renderedSources) or as a
	// build's generated pages (generatedPage). Prune deletes the
	// documents an earlier run stored for them.
	Linked *[]string
}

// ErrSourceURICollision: two different files map to one source_uri (e.g.
// two roots under one --base-uri, each with an index.md): one document
// would silently replace the other, so Walk refuses the whole run before
// anything is written. Its text names every such source_uri and both
// paths.
var ErrSourceURICollision = errors.New("ingest: files map to the same source_uri")

// Walk lists the supported files under paths (files or directories), sorted
// by source_uri, and reports the files it leaves out. Files with
// unsupported extensions inside a directory are skipped silently unless an
// Include glob names them (then they are reported as skipped); a file named
// as a path of its own is always reported when unsupported. Symbolic links
// are not followed out of a root (no path traversal): a link to a supported
// file outside the root is reported as skipped. A link to an unsupported
// type is left out like any such file, wherever it points (documentation
// trees link to shared JavaScript). Unreadable directories and dangling
// links are failures. One file reached twice (a root named twice, or a
// file and its directory) is listed once; two different files that map to
// one source_uri are ErrSourceURICollision, and nothing is listed.
func Walk(paths []string, o WalkOptions) ([]File, []Failure, error) {
	for _, g := range append(append([]string{}, o.Include...), o.Exclude...) {
		if !doublestar.ValidatePattern(g) {
			return nil, nil, fmt.Errorf("invalid glob %q", g)
		}
	}
	if o.BaseURI != "" {
		u, err := url.Parse(o.BaseURI)
		if err != nil || u.Scheme == "" {
			return nil, nil, fmt.Errorf("invalid --base-uri %q: want an absolute URL", o.BaseURI)
		}
	}
	var files []File
	var fails []Failure
	seen := map[string]string{}  // source_uri → the file (links resolved) it came from
	shown := map[string]string{} // source_uri → the path it was found at
	var collisions []string
	sources := map[string]map[string]bool{} // directory → the text files renderedSources leaves out
	named := map[string]bool{}              // source_uris of the files named on their own
	rels := map[string]string{}             // source_uri → the file's path relative to its root
	var copyDirs []string                   // a build's copy directories entered for a glob that asks for files there
	for _, root := range paths {
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, nil, err
		}
		realRoot, err := filepath.EvalSymlinks(abs)
		if _, lerr := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) && errors.Is(lerr, fs.ErrNotExist) {
			// A path that is not there is named as given, not by the
			// first missing directory the error names ("lstat
			// /nonexistent"); a link that is there and points nowhere
			// keeps the error naming its missing target.
			return nil, nil, fmt.Errorf("%s: %w", root, syscall.ENOENT)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", root, err)
		}
		info, err := os.Stat(realRoot)
		if err != nil {
			return nil, nil, err
		}
		base := realRoot
		if !info.IsDir() {
			// A file named on its own is reported when it cannot be
			// ingested, whatever the globs: the caller asked for it.
			if _, err := askedType(realRoot, true); err != nil {
				fails = append(fails, Failure{Path: root, Reason: err.Error(), Kind: KindSkipped})
				continue
			}
			base = filepath.Dir(realRoot)
		}
		err = filepath.WalkDir(realRoot, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				fails = append(fails, Failure{Path: p, Reason: err.Error(), Kind: KindFailed})
				return nil
			}
			rel, _ := filepath.Rel(base, p)
			rel = filepath.ToSlash(rel)
			if de.IsDir() {
				// A directory an --exclude glob names ("_modules",
				// "_modules/*" for what it holds, "**/build") is left out
				// whole: a glob written for a directory meant its files,
				// and "_modules/*" had matched only those directly in it.
				if rel != "." && match(o.Exclude, rel, false) {
					if o.Excluded != nil {
						*o.Excluded += supportedFiles(p)
					}
					return fs.SkipDir
				}
				if reason := sphinxCopies[de.Name()]; reason != "" && sphinxBuildDir(p) {
					if !picky(o.Include) {
						fails = append(fails, Failure{Path: p, Reason: reason, Kind: KindSkipped})
						return fs.SkipDir
					}
					// Entered for what a glob other than a broad one asks
					// for there ("**/_sources/*.txt", "*.txt"): only that.
					copyDirs = append(copyDirs, p+string(filepath.Separator))
				}
				relOf := func(name string) string {
					if rel == "." {
						return name
					}
					return path.Join(rel, name)
				}
				// Pages an --exclude leaves out are no pages: their
				// sources are all the run has of them.
				src := renderedSources(p, func(name string) bool { return !match(o.Exclude, relOf(name), false) })
				for name := range src {
					if picked(o.Include, relOf(name)) {
						delete(src, name) // asked for by name or kind ("git/*.txt")
					}
				}
				if len(src) > 0 {
					n := 0
					for name := range src {
						r := relOf(name)
						if !match(o.Exclude, r, false) && match(o.Include, r, true) {
							n++
							if o.Linked != nil {
								*o.Linked = append(*o.Linked, sourceURI(o, filepath.Join(p, name), r))
							}
						}
					}
					sources[p] = src
					if n > 0 {
						fails = append(fails, Failure{Path: p, Reason: fmt.Sprintf("%d text %s: the sources of the HTML pages beside them, or parts those pages include (--include them to ingest them)", n, plural(n, "file", "files")), Kind: KindSkipped, Files: n})
					}
				}
				return nil
			}
			if !de.Type().IsRegular() && de.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			if !match(o.Include, rel, true) {
				return nil
			}
			if slices.ContainsFunc(copyDirs, func(d string) bool { return strings.HasPrefix(p, d) }) && !picked(o.Include, rel) {
				return nil
			}
			if match(o.Exclude, rel, false) {
				if _, err := extract.TypeFromPath(p); err == nil && o.Excluded != nil {
					*o.Excluded++
				}
				return nil
			}
			if p != realRoot && sources[filepath.Dir(p)][de.Name()] {
				// (A file named on its own is the caller's request.)
				return nil
			}
			if !picked(o.Include, rel) && sphinxGenerated(p) {
				fails = append(fails, Failure{Path: p, Reason: "a generated index, search or not-found page of a Sphinx or MkDocs build, no document (--include it to ingest it)", Kind: KindSkipped})
				if o.Linked != nil {
					*o.Linked = append(*o.Linked, sourceURI(o, p, rel)) // --prune deletes what an earlier run stored for it
				}
				return nil
			}
			ct, err := askedType(p, p == realRoot || picked(o.Include, rel))
			if err != nil {
				if len(o.Include) > 0 {
					fails = append(fails, Failure{Path: p, Reason: err.Error(), Kind: KindSkipped})
				} else if o.Ignored != nil {
					o.Ignored[strings.ToLower(filepath.Ext(p))]++
				}
				return nil
			}
			if de.Type()&fs.ModeSymlink != 0 {
				target, err := filepath.EvalSymlinks(p)
				if err != nil {
					fails = append(fails, Failure{Path: p, Reason: "symbolic link cannot be resolved: " + err.Error(), Kind: KindFailed})
					return nil
				}
				if !within(realRoot, target) {
					fails = append(fails, Failure{Path: p, Reason: "symbolic link leaves the ingested directory", Kind: KindSkipped})
					return nil
				}
				if st, err := os.Stat(target); err != nil || st.IsDir() {
					return nil
				}
				// A link to a file the walk lists under its own name is the
				// same document twice (a Debian -doc package links each
				// alias's manual to one PDF: six copies of dot.1 filled the
				// top results and were cited as circo.1 and fdp.1).
				if trel, err := filepath.Rel(base, target); err == nil && walked(o, filepath.ToSlash(trel)) {
					fails = append(fails, Failure{Path: p, Reason: "symbolic link to " + filepath.ToSlash(trel) + ", ingested under its own name", Kind: KindSkipped})
					if o.Linked != nil {
						*o.Linked = append(*o.Linked, sourceURI(o, p, rel))
					}
					return nil
				}
			}
			uri := sourceURI(o, p, rel)
			if !info.IsDir() {
				named[uri] = true
			}
			real := p
			if r, err := filepath.EvalSymlinks(p); err == nil {
				real = r
			}
			switch prev, ok := seen[uri]; {
			case !ok:
				seen[uri], shown[uri], rels[uri] = real, p, rel
				files = append(files, File{Path: p, SourceURI: uri, ContentType: ct, Metadata: o.Metadata, Access: o.Access, SetAccess: o.SetAccess})
			case prev != real:
				collisions = append(collisions, fmt.Sprintf("%s and %s both map to %s", shown[uri], p, uri))
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	if len(collisions) > 0 {
		return nil, nil, fmt.Errorf("%w (nothing was written; give each root its own base URI, or ingest them in separate runs): %s",
			ErrSourceURICollision, strings.Join(collisions, "; "))
	}
	if same := identicalCopies(files, named); len(same) > 0 {
		kept := files[:0:0]
		for i, f := range files {
			k, isCopy := same[i]
			if !isCopy || picked(o.Include, rels[f.SourceURI]) {
				kept = append(kept, f)
				continue
			}
			fails = append(fails, Failure{Path: f.Path, Kind: KindSkipped,
				Reason: fmt.Sprintf("the same content as %s, ingested under its own name (--include it to ingest it)", rels[files[k].SourceURI])})
			if o.Linked != nil {
				*o.Linked = append(*o.Linked, f.SourceURI) // --prune deletes its earlier copy
			}
		}
		files = kept
	}
	if copies := allInOneCopies(files, named); len(copies) > 0 {
		kept := files[:0:0]
		for i, f := range files {
			n, isCopy := copies[i]
			if !isCopy || picked(o.Include, rels[f.SourceURI]) {
				kept = append(kept, f)
				continue
			}
			fails = append(fails, Failure{Path: f.Path, Kind: KindSkipped,
				Reason: fmt.Sprintf("an all-in-one copy of %d other pages of this run, which compete with it for every question (--include it to ingest it)", n)})
			if o.Linked != nil {
				*o.Linked = append(*o.Linked, f.SourceURI) // --prune deletes its earlier copy
			}
		}
		files = kept
	}
	sort.Slice(files, func(i, j int) bool { return files[i].SourceURI < files[j].SourceURI })
	return files, fails, nil
}

// sourceURI is the source_uri of the file at p, rel under the walked root.
func sourceURI(o WalkOptions, p, rel string) string {
	if o.BaseURI != "" {
		return JoinURI(o.BaseURI, rel)
	}
	return FileURI(p)
}

// FileURI is the file: URI of the file at the absolute path p, its path
// escaped as EscapePath escapes it ("file:///srv/docs/python%202%20sunset.html").
func FileURI(p string) string {
	return "file://" + EscapePath(filepath.ToSlash(p))
}

// JoinURI is base (a URL, its trailing slashes dropped) + "/" + the
// relative slash-separated path rel, escaped (EscapePath).
func JoinURI(base, rel string) string {
	return strings.TrimRight(base, "/") + "/" + EscapePath(rel)
}

// EscapePath percent-encodes what a URI's path cannot hold as it is — a
// file's name with a space, '#', '?' or '%' in it ("python 2
// sunset.html" was cited as a URL no browser opens): control bytes, space
// and "#%<>?[\]^`{|}. It keeps '/', the sub-delimiters a path may hold
// (parentheses, '!', '+', …) and non-ASCII letters (an IRI's path, so
// names in other scripts stay readable). url.PathUnescape reverses it.
func EscapePath(p string) string {
	const escaped = "\"#%<>?[\\]^`{|}"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte(escaped, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// walked reports whether Walk lists the regular file at rel (relative to
// the walked root) under its own name: its globs take it and no
// --exclude names it or a directory above it.
func walked(o WalkOptions, rel string) bool {
	if strings.HasPrefix(rel, "../") || !match(o.Include, rel, true) || match(o.Exclude, rel, false) {
		return false
	}
	if _, err := extract.TypeFromPath(rel); err != nil {
		return false
	}
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		if match(o.Exclude, d, false) {
			return false
		}
	}
	return true
}

// Root returns the directory the source_uris of the files Walk finds
// under path are relative to: path itself, symbolic links resolved, or the
// directory of a file. Errors: path cannot be resolved or read.
func Root(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return filepath.Dir(real), nil
	}
	return real, nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// supportedFiles counts the files of a type ingest reads under dir.
func supportedFiles(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err == nil && de.Type().IsRegular() {
			if _, err := extract.TypeFromPath(p); err == nil {
				n++
			}
		}
		return nil
	})
	return n
}

// broadGlob reports an --include glob of every page, or every file, of
// the directories it walks: its last element is "*", "**", "*.*", "*.html"
// or "*.htm". It selects files by kind; the walk's rules for a build's
// generated pages, its text sources and copy directories, and all-in-one
// copies stay in force under it: a fresh user's manifest that included
// "*.html" added a Sphinx build's 156 generated pages, and nDCG@10 fell
// from 0.884 to 0.836. Any other glob ("genindex.html", "*.txt",
// "_modules/**") asks for what it matches, those files included.
func broadGlob(g string) bool {
	last := g[strings.LastIndex(g, "/")+1:]
	switch last {
	case "*", "**", "*.*", "*.html", "*.htm":
		return true
	}
	// A list of extensions with the pages among them ("*.{html,md}") is
	// every page too.
	if list, ok := strings.CutPrefix(last, "*.{"); ok && strings.HasSuffix(list, "}") {
		for _, ext := range strings.Split(strings.TrimSuffix(list, "}"), ",") {
			if ext == "html" || ext == "htm" {
				return true
			}
		}
	}
	return false
}

// askedType is the content type of the file at p by its name
// (extract.TypeFromPath), or "" (decided by its bytes) for a file without
// an extension that the caller asked for.
func askedType(p string, asked bool) (string, error) {
	t, err := extract.TypeFromPath(p)
	name := p
	if extract.Gzipped(p) {
		name = p[:len(p)-len(".gz")]
	}
	if err != nil && asked && filepath.Ext(name) == "" {
		// A file without an extension that the caller names (on its own,
		// or by an --include glob that is no broad one: "FAQ",
		// "KNOWN_BUGS", "docs/INSTALL") is read as what its bytes are
		// (extract.Detect: a PDF, a DOCX or an HTML page by their start,
		// else plain text; binary bytes are refused when it is read).
		// Left out by default: a documentation directory's extensionless
		// files are as often scripts and build files.
		return "", nil
	}
	return t, err
}

// picked reports whether an --include glob other than a broad one
// (broadGlob) matches rel.
func picked(globs []string, rel string) bool {
	for _, g := range globs {
		if !broadGlob(g) && match([]string{g}, rel, false) {
			return true
		}
	}
	return false
}

// picky reports whether any --include glob is not a broad one: the walk
// then enters a build's copy directories, for the files such a glob may
// ask for there.
func picky(globs []string) bool {
	return slices.ContainsFunc(globs, func(g string) bool { return !broadGlob(g) })
}

func match(globs []string, rel string, emptyIs bool) bool {
	if len(globs) == 0 {
		return emptyIs
	}
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
		if ok, _ := doublestar.Match(g, filepath.Base(rel)); ok && !strings.Contains(g, "/") {
			return true
		}
	}
	return false
}

// Summary counts what a batch did. Files not ingested are counted and
// listed by kind (Add); only Failed makes a run fail.
type Summary struct {
	Added     int `json:"added"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	Deleted   int `json:"deleted"`
	Skipped   int `json:"skipped"`
	Refused   int `json:"refused"`
	Failed    int `json:"failed"`
	Chunks    int `json:"chunks"`
	Embedded  int `json:"embedded"`
	// Ignored counts by extension the files of unsupported types a walk
	// left out without listing them (WalkOptions.Ignored); set by the
	// caller that walked.
	Ignored map[string]int `json:"ignored,omitempty"`
	// Excluded counts the supported files the run's --exclude globs left
	// out (WalkOptions.Excluded); set by the caller that walked.
	Excluded int `json:"excluded,omitempty"`
	// LeftOutDirs counts the directories the walk left out whole (a
	// Sphinx build's _static/), which Skipped does not count: it counts
	// files, as the text summary does (each is listed in SkippedFiles
	// too). Set by the caller that walked.
	LeftOutDirs int `json:"left_out_dirs,omitempty"`
	// Failures lists the failed files; SkippedFiles and RefusedFiles the others.
	Failures     []Failure `json:"failures"`
	SkippedFiles []Failure `json:"skipped_files"`
	RefusedFiles []Failure `json:"refused_files"`
	// JobID is the ingestion job a `ragd ingest` run was recorded as;
	// set by the caller that recorded it.
	JobID string `json:"job_id,omitempty"`
	// Documents are the run's files stored or found unchanged, in path
	// order: the source_uri each got, which an evaluation set names.
	Documents []StoredFile `json:"documents"`
	// DeletedDocuments are the source_uris of the documents a prune deleted.
	DeletedDocuments []string `json:"deleted_documents"`
	// KeptDocuments are the documents a prune found under its prefix with
	// no file of the run and did not delete, because no `ragd ingest` run
	// wrote them (KeptDocument.Writer).
	KeptDocuments []KeptDocument `json:"kept_documents"`
	Elapsed       time.Duration  `json:"elapsed_ns"`
}

// StoredFile is a file of a run and the document it is: its source_uri,
// whether it was added, updated or unchanged, and its chunks.
type StoredFile struct {
	Path      string `json:"path"`
	SourceURI string `json:"source_uri"`
	Status    string `json:"status"`
	Chunks    int    `json:"chunks"`
}

// KeptDocument is a document a prune kept: Writer "api" when the API or
// an ingestion job wrote it, "unknown" when it was stored before ragd
// recorded writers.
type KeptDocument struct {
	SourceURI string `json:"source_uri"`
	Writer    string `json:"writer"`
}

// MarshalJSON writes the lists as arrays, empty ones as [] (not null).
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	c := plain(s)
	for _, l := range []*[]Failure{&c.Failures, &c.SkippedFiles, &c.RefusedFiles} {
		if *l == nil {
			*l = []Failure{}
		}
	}
	if c.DeletedDocuments == nil {
		c.DeletedDocuments = []string{}
	}
	if c.Documents == nil {
		c.Documents = []StoredFile{}
	}
	if c.KeptDocuments == nil {
		c.KeptDocuments = []KeptDocument{}
	}
	return json.Marshal(c)
}

// Add counts and lists files not ingested by their kind (an empty kind is
// a failure), e.g. the ones Walk reported.
func (s *Summary) Add(fs ...Failure) {
	for _, f := range fs {
		switch f.Kind {
		case KindSkipped:
			s.Skipped++
			s.SkippedFiles = append(s.SkippedFiles, f)
		case KindRefused:
			s.Refused++
			s.RefusedFiles = append(s.RefusedFiles, f)
		default:
			f.Kind = KindFailed
			s.Failed++
			s.Failures = append(s.Failures, f)
		}
	}
}

// NotIngested returns every file not ingested, sorted by path.
func (s *Summary) NotIngested() []Failure {
	all := append(append(append([]Failure{}, s.Failures...), s.SkippedFiles...), s.RefusedFiles...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	return all
}

// Progress receives one call per finished file (done of total, chunks so far).
type Progress func(done, total, chunks int)

// Prune says which of a tenant's documents an ingest run deletes: those
// under the source_uri Prefix that were not among the run's files and
// whose file is gone. With Roots, a document's file is the source_uri's
// remainder after Prefix, relative to each root: a document whose file
// still exists under some root is kept even though the run's --include or
// --exclude left it out (it is not gone, only not selected this time).
// Without Roots, every document not among the files is gone. A document
// of a file the walk left out as a copy of a listed one (Linked: a
// symbolic link to it, or its page's text source) is gone too. The zero
// Prune deletes nothing.
type Prune struct {
	Prefix string
	Roots  []string
	Linked []string
	// Unescaped is Prefix as ragd wrote it before source_uris were
	// escaped (a file: root with a space: "file:///home/ann/My Docs/"),
	// when it differs: a document under it is the superseded copy of the
	// file at its remainder under the first root, deleted when that file
	// is among the run's files (under its escaped source_uri) or gone.
	Unescaped string
	// Force lets a prune delete more than PruneGuard allows.
	Force bool
}

// PruneGuard bounds what a prune deletes without Prune.Force: more than
// pruneGuardMin documents and more than half of those under the prefix is
// taken for a mistake (a subdirectory ingested with its parent's
// --base-uri: a fresh user's run deleted 28 of a tenant's 30 documents),
// and nothing is deleted.
const (
	pruneGuardMin   = 10
	pruneGuardShare = 0.5
)

// ErrPruneGuard is the failure of a prune PruneGuard stopped.
var ErrPruneGuard = errors.New("prune stopped")

// gone reports whether the document at uri has no file under any root,
// or is a left-out link's.
func (pr Prune) gone(uri string) bool {
	escaped, ok := strings.CutPrefix(uri, pr.Prefix)
	if !ok {
		return false
	}
	if slices.Contains(pr.Linked, uri) {
		return true
	}
	if pr.misspelt(uri) {
		return true
	}
	rel, _ := url.PathUnescape(escaped)
	return !pr.exists(rel)
}

// replacedSpelling reports whether uri is a superseded spelling (misspelt)
// of a file this run ingests under its escaped source_uri (keep): only
// then is a document of unknown writer there an ingest run's old copy
// ("…/billing.html#refunds" uploaded through the API is misspelt too, and
// names no file).
func (pr Prune) replacedSpelling(uri string, keep map[string]bool) bool {
	if !pr.misspelt(uri) {
		return false
	}
	rel, err := url.PathUnescape(strings.TrimPrefix(uri, pr.Prefix))
	return err == nil && keep[pr.Prefix+EscapePath(rel)]
}

// misspelt reports whether uri, under the prefix, is not the spelling
// EscapePath gives its file's path. The remainder is the file's path as
// EscapePath wrote it; a document stored under another spelling of it
// (before source_uris were escaped: "a b.html" for "a%20b.html") is the
// same file's superseded copy, which only ingest runs wrote.
func (pr Prune) misspelt(uri string) bool {
	escaped, ok := strings.CutPrefix(uri, pr.Prefix)
	if !ok {
		return false
	}
	rel, err := url.PathUnescape(escaped)
	return err != nil || EscapePath(rel) != escaped
}

// exists reports whether the slash-separated path rel names a file that
// exists under one of the roots (and stays within it).
func (pr Prune) exists(rel string) bool {
	for _, root := range pr.Roots {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if !within(root, p) {
			continue
		}
		if _, err := os.Lstat(p); err == nil {
			return true
		}
	}
	return false
}

// IngestFiles upserts files for tenant t with `workers` documents in flight
// (pipelining extraction and database writes with embedding), then deletes
// the documents prune names (Summary.DeletedDocuments lists them). A file that is not ingested is
// reported with its reason and kind (KindOf: unsupported and binary files
// are skipped, files over the size limit refused, invalid UTF-8, empty
// files and errors failed) and nothing of it is stored; the others proceed.
func (p *Pipeline) IngestFiles(ctx context.Context, t tenant.Tenant, files []File, workers int, prune Prune, progress Progress) (Summary, error) {
	start := time.Now()
	var sum Summary
	var mu sync.Mutex
	// skipped are the source_uris of the files read and found to be no
	// document (an index page, a redirect): a prune deletes what an
	// earlier run stored for them.
	skipped := map[string]bool{}
	jobs := make(chan File)
	var wg sync.WaitGroup
	done := 0
	if workers < 1 {
		workers = 1
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				out, err := p.ingestFile(ctx, t, f)
				fileDone(ctx, f, out, err)
				mu.Lock()
				done++
				if err != nil {
					sum.Add(Failure{Path: f.Path, Reason: err.Error(), Kind: KindOf(err), Redirect: errors.Is(err, extract.ErrRedirect)})
					if KindOf(err) == KindSkipped {
						skipped[f.SourceURI] = true
					}
				} else {
					switch out.Status {
					case StatusAdded:
						sum.Added++
					case StatusUpdated:
						sum.Updated++
					case StatusUnchanged:
						sum.Unchanged++
					}
					sum.Chunks += out.Chunks
					sum.Embedded += out.Embedded
					sum.Documents = append(sum.Documents, StoredFile{Path: f.Path, SourceURI: f.SourceURI, Status: string(out.Status), Chunks: out.Chunks})
				}
				if progress != nil {
					progress(done, len(files), sum.Chunks)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, f := range files {
		select {
		case jobs <- f:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	slices.SortFunc(sum.Documents, func(a, b StoredFile) int { return strings.Compare(a.Path, b.Path) })
	if err := ctx.Err(); err != nil {
		sum.Elapsed = time.Since(start)
		return sum, err
	}
	if prune.Prefix != "" {
		keep := make(map[string]bool, len(files))
		for _, f := range files {
			keep[f.SourceURI] = !skipped[f.SourceURI]
		}
		existing, err := p.ListSourceURIs(ctx, t, prune.Prefix)
		if err != nil {
			return sum, err
		}
		superseded := map[string]bool{}
		if prune.Unescaped != "" && prune.Unescaped != prune.Prefix {
			old, err := p.ListSourceURIs(ctx, t, prune.Unescaped)
			if err != nil {
				return sum, err
			}
			for uri, w := range old {
				if strings.HasPrefix(uri, prune.Prefix) {
					continue
				}
				rel := strings.TrimPrefix(uri, prune.Unescaped)
				if keep[prune.Prefix+EscapePath(rel)] || len(prune.Roots) > 0 && !prune.exists(rel) {
					superseded[uri] = true
					existing[uri] = w
				}
			}
		}
		var doomed []string
		oldSpelling := map[string]bool{} // a candidate is an old spelling of a file of the run (only ingest runs wrote those)
		lost, firstLost := 0, ""         // the doomed that no file of the run replaces
		for _, uri := range slices.Sorted(maps.Keys(existing)) {
			if keep[uri] || !superseded[uri] && !skipped[uri] && !prune.gone(uri) {
				continue
			}
			// Only what a `ragd ingest` run stored is a file's to delete:
			// a document the API wrote under the prefix names no file and
			// never had one. One stored before writers were recorded is
			// kept too, unless it is a superseded spelling (only ingest
			// runs wrote those).
			oldSpelling[uri] = superseded[uri] || prune.replacedSpelling(uri, keep)
			switch w := existing[uri]; {
			case w == WriterOther:
				sum.KeptDocuments = append(sum.KeptDocuments, KeptDocument{SourceURI: uri, Writer: "api"})
				continue
			case w == WriterUnknown && !oldSpelling[uri]:
				sum.KeptDocuments = append(sum.KeptDocuments, KeptDocument{SourceURI: uri, Writer: "unknown"})
				continue
			}
			doomed = append(doomed, uri)
			// A superseded spelling of a file of this run (its source_uri
			// before escaping) is replaced, not lost: an upgrade's prune
			// deletes one for every page with a space in its name. So is
			// the copy of a file the run ingests under its own name (a
			// link to it, its text source, an identical twin, an
			// all-in-one copy: Linked).
			if rest, ok := strings.CutPrefix(uri, prune.Prefix); superseded[uri] || slices.Contains(prune.Linked, uri) || ok && keep[prune.Prefix+EscapePath(rest)] {
				continue
			}
			if lost++; firstLost == "" {
				firstLost = uri
			}
		}
		// The guard's share is of the documents a prune may delete: the
		// API's under the prefix would dilute it (twenty uploads let a
		// mistaken run delete 13 of 14 pages).
		stored := 0
		for _, w := range existing {
			if w != WriterOther {
				stored++
			}
		}
		if n := lost; !prune.Force && n > pruneGuardMin && float64(n) > pruneGuardShare*float64(stored) {
			sum.Add(Failure{Path: prune.Prefix, Kind: KindFailed, Reason: fmt.Sprintf(
				"%v: it would delete %d of the %d documents under %s (their files are not under the ingested paths; the first: %s); nothing was deleted. "+
					"If the paths are a part of the tree that prefix names, give them their own base URI; if the files are really gone, prune with force",
				ErrPruneGuard, n, stored, prune.Prefix, firstLost)})
			doomed = nil
		}
		for _, uri := range doomed {
			if err := p.pruneOne(ctx, t, uri, oldSpelling[uri]); err != nil {
				if !errors.Is(err, ErrNotFound) {
					sum.Add(Failure{Path: uri, Reason: "prune: " + err.Error(), Kind: KindFailed})
				}
				// Not found: deleted meanwhile, or rewritten by the API
				// since it was listed, which the delete checked.
				continue
			}
			sum.Deleted++
			sum.DeletedDocuments = append(sum.DeletedDocuments, uri)
		}
	}
	for _, l := range [][]Failure{sum.Failures, sum.SkippedFiles, sum.RefusedFiles} {
		sort.Slice(l, func(i, j int) bool { return l[i].Path < l[j].Path })
	}
	sum.Elapsed = time.Since(start)
	return sum, nil
}

func (p *Pipeline) ingestFile(ctx context.Context, t tenant.Tenant, f File) (Outcome, error) {
	st, err := os.Stat(f.Path)
	if err != nil {
		return Outcome{}, err
	}
	if st.Size() > int64(p.maxBytes) {
		return Outcome{}, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, st.Size(), p.maxBytes)
	}
	data, err := p.readFile(f.Path)
	if err != nil {
		return Outcome{}, err
	}
	return p.Upsert(ctx, t, Document{SourceURI: f.SourceURI, ContentType: fileCharset(f, data), Content: data, Metadata: f.Metadata, Access: f.Access, SetAccess: f.SetAccess, FromFiles: true})
}

// fileCharset is the content type a file is read as: a text file (plain or
// Markdown) that is not UTF-8 and has no byte-order mark is
// Windows-1252, the superset of Latin-1 that WHATWG's encoding standard
// reads such text as (a file has no declared charset, as an upload may:
// "Crème brûlée" saved by an old editor could not be ingested at all).
// Binary content is refused by detection as before.
func fileCharset(f File, data []byte) string {
	if utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 ||
		bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		return f.ContentType
	}
	typ := f.ContentType
	if typ == "" {
		typ, _ = extract.TypeFromPath(f.Path)
	}
	// (HTML names its charset in a meta tag, which extraction reads.)
	if c, err := extract.CanonicalType(typ); err == nil && (c == extract.TypePlain || c == extract.TypeMarkdown) && !strings.Contains(typ, "charset") {
		return c + "; charset=windows-1252"
	}
	return f.ContentType
}

// sphinxCopies are the directories of a Sphinx HTML build that copy its
// pages or its code rather than being documents, with the line a walk
// gives for each: _sources/, the reStructuredText of every page again,
// which would be a second copy of each page in every answer; _modules/,
// the viewcode extension's highlighted copy of every documented module's
// source, standard-library modules included (a Tornado trial's tenant held
// 675 such chunks of its 1,102; they were among the sources of 33 of 42
// answers and the first of 13, and one answer was a fragment of a test
// helper's source, where the API pages document the same names in prose);
// _static/, the theme's files and what the pages link as assets (Scrapy's
// selectors-sample1.html, an 84-byte page its tutorial parses).
var sphinxCopies = map[string]string{
	"_sources": "Sphinx's reStructuredText copies of the pages next to it (--include them to ingest them)",
	"_static":  "Sphinx's static files (stylesheets, scripts, images, sample pages), not documentation (--include them to ingest them)",
	"_modules": "Sphinx's highlighted source code of the documented modules (viewcode), not documentation (--include it to ingest it)",
}

// sphinxBuildDir reports whether dir lies in the root of a Sphinx HTML
// build (buildTree.sphinxRoot).
func sphinxBuildDir(dir string) bool {
	return diskTree.sphinxRoot(filepath.Dir(dir))
}

// sphinxGenerated reports whether path is a page a static-site build
// generates rather than one of its documents (generatedPage).
func sphinxGenerated(path string) bool {
	return generatedPage(path, diskTree)
}

// buildTree is what the rules that tell a build's files (sphinxCopies,
// generatedPage) read of a tree: has reports whether it holds a file at
// a path, or a directory at a path ending in "/"; head returns a file's
// first bytes (at least SphinxMarkWithin; nil when unknown). Paths are
// "/"-separated: a directory walk's absolute paths, an archive's entries.
type buildTree struct {
	has  func(p string) bool
	head func(p string) []byte
}

// diskTree is the file system's buildTree.
var diskTree = buildTree{
	has: func(p string) bool {
		if d, ok := strings.CutSuffix(p, "/"); ok {
			st, err := os.Stat(d)
			return err == nil && st.IsDir()
		}
		return regularFile(p)
	},
	head: func(p string) []byte { return fileHead(p, SphinxMarkWithin) },
}

// sphinxRoot reports whether dir is the root of a Sphinx HTML build: it
// holds the build's searchindex.js or _static/documentation_options.js,
// or an index.html whose head is a Sphinx page's (sphinxPage) beside a
// _static/ directory. Debian strips searchindex.js from many packages
// (bind9-doc, python-dask-doc), and bind9-doc ships its scripts one
// directory down (_static/_static/): such a build is told by its pages.
func (t buildTree) sphinxRoot(dir string) bool {
	return t.has(path.Join(dir, "searchindex.js")) || t.has(path.Join(dir, "_static/documentation_options.js")) ||
		t.has(path.Join(dir, "_static")+"/") && sphinxPage(t.head(path.Join(dir, "index.html")))
}

// fileHead returns up to n bytes from the start of the file at path (none
// when it cannot be read).
func fileHead(path string, n int) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, n)
	k, _ := io.ReadFull(f, b)
	return b[:k]
}

// SphinxMarkWithin is how far into a page its head's scripts are looked
// for: Sphinx writes them in <head>, before any content.
const SphinxMarkWithin = 16 << 10

// sphinxPage reports whether a page's start, as generatedPage reads it,
// is a Sphinx build's: its <head> loads (or, before Sphinx 1.8, defines)
// the build's documentation options. A build shipped without its
// searchindex.js (Debian's bind9-doc) is still told by its pages. Only
// the head counts: a page whose text mentions the script is no build's.
func sphinxPage(start []byte) bool {
	head := start
	if i := bytes.Index(bytes.ToLower(start), []byte("<body")); i >= 0 {
		head = start[:i]
	}
	return bytes.Contains(head, []byte("documentation_options.js")) || bytes.Contains(head, []byte("DOCUMENTATION_OPTIONS"))
}

// generatedPage reports whether the page at p is one a static-site build
// generates rather than one of its documents. At a Sphinx build's root
// (beside its searchindex.js, or a root told by its pages whose own head
// is a Sphinx page's: sphinxRoot): the general index (genindex.html,
// split as genindex-A.html …), the module index (py-modindex.html), the
// search page and the "page not found" page (404.html), and the dirhtml
// builder's genindex/index.html, py-modindex/index.html and
// search/index.html; beside an MkDocs build's search/search_index.json,
// its search page, its sitemap page and its 404.html; at either build's
// root, robots.txt. An index lists
// every name of the documentation, each a link; ingested, it matched
// questions about any of them and was quoted as a source. A 404 page says
// only that a page is missing. Debian's bind9-doc, shipped without
// searchindex.js, stored its genindex.html and a search.html whose only
// chunk was the "Built with Sphinx" footer. Below a build's root these
// names are documents' (Django's topics/db/search.html).
func generatedPage(p string, t buildTree) bool {
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	own := func() bool { return sphinxPage(t.head(p)) }
	switch {
	case name == "genindex.html" || name == "py-modindex.html" || name == "search.html" || name == "404.html" ||
		strings.HasPrefix(name, "genindex-") && strings.HasSuffix(name, ".html"):
		if t.has(path.Join(dir, "searchindex.js")) || own() && t.sphinxRoot(dir) {
			return true
		}
	case name == "index.html" && (path.Base(dir) == "genindex" || path.Base(dir) == "py-modindex" || path.Base(dir) == "search"):
		root := path.Dir(dir)
		if t.has(path.Join(root, "searchindex.js")) || own() && t.sphinxRoot(root) {
			return true
		}
	}
	if name == "robots.txt" && (t.has(path.Join(dir, "searchindex.js")) || t.has(path.Join(dir, "search/search_index.json"))) {
		// A site's rules for crawlers, shipped with its build (parfive's
		// Debian package): stored, it was a search result for a
		// question about football (a held-out trial).
		return true
	}
	return (name == "search.html" || name == "sitemap.html" || name == "404.html") && t.has(path.Join(dir, "search/search_index.json"))
}

// BuildFileSkip returns why a file of an uploaded tree (an ingestion job's
// archive, which has no directory to walk) is no document by the rules a
// walk applies to a build (sphinxCopies, generatedPage), or "": rel is the
// file's path in the tree ("/"-separated), has reports whether the tree
// holds another path (a file, or a directory when the path ends in "/"),
// and head returns the first bytes (at least SphinxMarkWithin) of a file
// of the tree, nil when unknown: a Sphinx build shipped without its
// search index is told by its pages' heads. (A type ragd does not read is
// told by the name alone, before the tree is known:
// extract.TypeFromPath.) An archive of a Sphinx build (the README's
// recipe) otherwise stored its _sources/ copies, _static/ files, search
// page and index, which outranked the pages in a fresh user's trial.
func BuildFileSkip(rel string, has func(rel string) bool, head func(rel string) []byte) string {
	t := buildTree{has: has, head: func(p string) []byte {
		if head == nil {
			return nil
		}
		return head(p)
	}}
	dir, _ := path.Split(rel)
	parts := strings.Split(strings.TrimSuffix(dir, "/"), "/")
	for i, part := range parts {
		if reason := sphinxCopies[part]; reason != "" && t.sphinxRoot(path.Join(parts[:i]...)) {
			reason, _, _ = strings.Cut(reason, " (--include")
			return reason
		}
	}
	if generatedPage(rel, t) {
		return "a generated index, search or not-found page of a Sphinx or MkDocs build, no document"
	}
	return ""
}

// renderedSources returns the text files (plain text and Markdown) of dir
// that are the sources of an HTML build beside them, by name: a text file
// with an HTML page of its own name (git-add.txt beside git-add.html: the
// AsciiDoc the page was rendered from, README.md beside README.html), and,
// when such pairs are at least two and at least half of dir's text files,
// every other text file of dir too — the parts the pages include
// (diff-options.txt in git-diff.html, git-log.html and four others).
// Ingested, each page was there twice or more, and the copies competed
// with it for the top results. Only the pages kept reports (by name) count:
// the walk ingests them; the source of a page it does not keep (an
// --exclude) is all the run has of that page, and stays. Nil when dir holds
// no such pair.
func renderedSources(dir string, kept func(name string) bool) map[string]bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	pages, excluded := map[string]bool{}, map[string]bool{}
	var texts []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := e.Name()
		switch ext := strings.ToLower(filepath.Ext(name)); ext {
		case ".html", ".htm":
			s := strings.ToLower(strings.TrimSuffix(name, filepath.Ext(name)))
			if kept(name) {
				pages[s] = true
			} else {
				excluded[s] = true
			}
		default:
			if t, err := extract.TypeFromPath(name); err == nil && (t == extract.TypePlain || t == extract.TypeMarkdown) {
				texts = append(texts, name)
			}
		}
	}
	stem := func(name string) string {
		if extract.Gzipped(name) {
			name = name[:len(name)-len(".gz")]
		}
		return strings.ToLower(strings.TrimSuffix(name, filepath.Ext(name)))
	}
	out := map[string]bool{}
	for _, name := range texts {
		if pages[stem(name)] {
			out[name] = true
		}
	}
	if len(out) == 0 {
		return nil
	}
	if len(out) >= 2 && 2*len(out) >= len(texts) {
		for _, name := range texts {
			// The source of a page --exclude left out is all the run
			// has of that page, whatever its neighbours are.
			if !excluded[stem(name)] || pages[stem(name)] {
				out[name] = true
			}
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func regularFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// readFile returns the bytes of the file at path, decompressed when it is
// gzipped (extract.Gzipped), at most the pipeline's size limit either way
// (ErrTooLarge past it: a small .gz can hold gigabytes).
func (p *Pipeline) readFile(path string) ([]byte, error) {
	if !extract.Gzipped(path) {
		return os.ReadFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return gunzip(f, filepath.Base(path), p.maxBytes)
}

// gunzip returns what the gzip stream r (of the file called name) holds,
// at most max bytes (ErrTooLarge past it: a small .gz can hold
// gigabytes). Errors: extract.ErrUnreadable when r is not gzip or is
// corrupt.
func gunzip(r io.Reader, name string, max int) ([]byte, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not gzip-compressed: %v", extract.ErrUnreadable, name, err)
	}
	data, err := io.ReadAll(io.LimitReader(zr, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", extract.ErrUnreadable, name, err)
	}
	if len(data) > max {
		return nil, fmt.Errorf("%w: decompressed past %d bytes, the limit", ErrTooLarge, max)
	}
	return data, nil
}
