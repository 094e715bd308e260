package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// File is one file found by Walk.
type File struct {
	Path        string // path on disk
	SourceURI   string // BaseURI + path relative to its root, or file:// + absolute path
	ContentType string
	// Metadata is stored with the document (WalkOptions.Metadata); nil
	// stores none.
	Metadata map[string]any
}

// Failure is a file or document that could not be ingested, with the reason.
type Failure struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
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
}

// Walk lists the supported files under paths (files or directories), sorted
// by source_uri. Symbolic links are not followed out of a root (a link whose
// target leaves the root is reported as a failure: no path traversal), and
// files with unsupported extensions inside a directory are skipped silently
// unless an Include glob names them (then they are reported); a file named
// as a path of its own is always reported when unsupported.
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
	seen := map[string]bool{}
	for _, root := range paths {
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, nil, err
		}
		realRoot, err := filepath.EvalSymlinks(abs)
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
			if _, err := extract.TypeFromPath(realRoot); err != nil {
				fails = append(fails, Failure{Path: root, Reason: err.Error()})
				continue
			}
			base = filepath.Dir(realRoot)
		}
		err = filepath.WalkDir(realRoot, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				fails = append(fails, Failure{Path: p, Reason: err.Error()})
				return nil
			}
			rel, _ := filepath.Rel(base, p)
			rel = filepath.ToSlash(rel)
			if de.IsDir() {
				return nil
			}
			if de.Type()&fs.ModeSymlink != 0 {
				target, err := filepath.EvalSymlinks(p)
				if err != nil || !within(realRoot, target) {
					fails = append(fails, Failure{Path: p, Reason: "symbolic link leaves the ingested directory; skipped"})
					return nil
				}
				if st, err := os.Stat(target); err != nil || st.IsDir() {
					return nil
				}
			} else if !de.Type().IsRegular() {
				return nil
			}
			if !match(o.Include, rel, true) || match(o.Exclude, rel, false) {
				return nil
			}
			ct, err := extract.TypeFromPath(p)
			if err != nil {
				if len(o.Include) > 0 {
					fails = append(fails, Failure{Path: p, Reason: err.Error()})
				}
				return nil
			}
			uri := "file://" + filepath.ToSlash(p)
			if o.BaseURI != "" {
				uri = strings.TrimRight(o.BaseURI, "/") + "/" + rel
			}
			if !seen[uri] {
				seen[uri] = true
				files = append(files, File{Path: p, SourceURI: uri, ContentType: ct, Metadata: o.Metadata})
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].SourceURI < files[j].SourceURI })
	return files, fails, nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
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

// Summary counts what a batch did.
type Summary struct {
	Added     int           `json:"added"`
	Updated   int           `json:"updated"`
	Unchanged int           `json:"unchanged"`
	Deleted   int           `json:"deleted"`
	Failed    int           `json:"failed"`
	Chunks    int           `json:"chunks"`
	Embedded  int           `json:"embedded"`
	Failures  []Failure     `json:"failures"`
	Elapsed   time.Duration `json:"elapsed_ns"`
}

// Progress receives one call per finished file (done of total, chunks so far).
type Progress func(done, total, chunks int)

// IngestFiles upserts files for tenant t with `workers` documents in flight
// (pipelining extraction and database writes with embedding), then, if
// prunePrefix is non-empty, deletes the tenant's documents under that
// source_uri prefix that were not in files. A file that fails is reported
// and skipped; the others proceed. Files over the size limit, invalid UTF-8,
// binary and empty files are failures with their reason, and nothing of them
// is stored.
func (p *Pipeline) IngestFiles(ctx context.Context, t tenant.Tenant, files []File, workers int, prunePrefix string, progress Progress) (Summary, error) {
	start := time.Now()
	var sum Summary
	var mu sync.Mutex
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
					sum.Failed++
					sum.Failures = append(sum.Failures, Failure{Path: f.Path, Reason: err.Error()})
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
	if err := ctx.Err(); err != nil {
		sum.Elapsed = time.Since(start)
		return sum, err
	}
	if prunePrefix != "" {
		keep := make(map[string]bool, len(files))
		for _, f := range files {
			keep[f.SourceURI] = true
		}
		existing, err := p.ListSourceURIs(ctx, t, prunePrefix)
		if err != nil {
			return sum, err
		}
		for _, uri := range existing {
			if keep[uri] {
				continue
			}
			if _, err := p.DeleteBySourceURI(ctx, t, uri); err != nil && !errors.Is(err, ErrNotFound) {
				sum.Failed++
				sum.Failures = append(sum.Failures, Failure{Path: uri, Reason: "prune: " + err.Error()})
				continue
			}
			sum.Deleted++
		}
	}
	sort.Slice(sum.Failures, func(i, j int) bool { return sum.Failures[i].Path < sum.Failures[j].Path })
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
	data, err := os.ReadFile(f.Path)
	if err != nil {
		return Outcome{}, err
	}
	return p.Upsert(ctx, t, Document{SourceURI: f.SourceURI, ContentType: f.ContentType, Content: data, Metadata: f.Metadata})
}
