package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// stringsFlag collects a repeatable flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// accessFlag is --access: a comma-separated access list, and whether it was
// given at all (--access= sets the empty list: everyone in the tenant).
type accessFlag struct {
	set        bool
	principals []string
}

func (a *accessFlag) String() string { return strings.Join(a.principals, ",") }
func (a *accessFlag) Set(v string) error {
	a.set, a.principals = true, nil
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			a.principals = append(a.principals, p)
		}
	}
	_, err := auth.NormalizeAccess(a.principals)
	return err
}

func runIngest(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "ingest", "ingest --tenant <slug> [--include GLOB] [--exclude GLOB] [--base-uri URL] [--metadata JSON] [--access P,P] [--prune] [--workers N] [--json] PATH...")
	slug := fs.String("tenant", "", "tenant slug")
	var include, exclude stringsFlag
	fs.Var(&include, "include", "glob of files to ingest, relative to each PATH (repeatable; default: every .md .html .htm .txt .pdf .docx, gzipped too (.pdf.gz), but a Sphinx build's _sources/; a glob of every page, '*.html', keeps the generated pages out, naming one takes it in)")
	fs.Var(&exclude, "exclude", "glob of files or directories to skip, relative to PATH (repeatable; a directory it names is skipped with all it holds; ** crosses directories)")
	baseURI := fs.String("base-uri", "", "source_uri = base URI + relative path (default file://absolute-path)")
	prune := fs.Bool("prune", false, "delete the documents ragd ingest stored under the same source_uri prefix whose file is gone (a file --include or --exclude leaves out is not gone; documents the API wrote there are kept); it deletes nothing and fails when that is more than 10 documents and more than half of those under the prefix, unless --prune-force")
	pruneForce := fs.Bool("prune-force", false, "with --prune: delete however many documents are gone")
	workers := fs.Int("workers", 2, "documents in flight")
	asJSON := fs.Bool("json", false, "print the summary as JSON (with each stored file's source_uri and the run's job id)")
	metadata := fs.String("metadata", "", `metadata of every ingested document, a JSON object (e.g. '{"product":"console"}'), for search's --metadata filter`)
	var access accessFlag
	fs.Var(&access, "access", "access list of every ingested document: principals user:<subject>, group:<name>, comma-separated; --access= for everyone in the tenant; absent: new documents are tenant-wide and existing ones keep theirs")
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *slug == "" || len(paths) == 0 {
		return usagef("ingest --tenant <slug> PATH...")
	}
	var meta map[string]any
	if *metadata != "" {
		var err error
		if meta, err = ingest.DecodeMetadata([]byte(*metadata)); err != nil || meta == nil {
			return usagef("--metadata must be a JSON object, got %q", *metadata)
		}
	}
	ignored := map[string]int{}
	excluded := 0
	var linked []string
	files, walkFails, err := ingest.Walk(paths, ingest.WalkOptions{Include: include, Exclude: exclude, BaseURI: *baseURI, Metadata: meta,
		Access: access.principals, SetAccess: access.set, Ignored: ignored, Excluded: &excluded, Linked: &linked})
	if errors.Is(err, ingest.ErrSourceURICollision) {
		return err // the inputs, not the command line: exit 1, nothing written
	}
	if err != nil {
		return usagef("%v", err)
	}
	d, err := openDeps(ctx, e)
	if err != nil {
		return err
	}
	defer d.close()
	t, err := d.tenantFor(ctx, e, *slug)
	if err != nil {
		return err
	}
	var pr ingest.Prune
	if *prune {
		if *baseURI != "" {
			pr.Prefix = strings.TrimRight(*baseURI, "/") + "/"
		} else if len(paths) == 1 {
			root := strings.TrimRight(absPath(paths[0]), "/")
			pr.Prefix = ingest.FileURI(root) + "/"
			// Documents stored before source_uris were escaped.
			pr.Unescaped = "file://" + filepath.ToSlash(root) + "/"
		} else {
			return usagef("--prune needs --base-uri or a single PATH (it deletes only under that prefix)")
		}
		pr.Roots = pruneRoots(paths)
		pr.Linked = linked
		pr.Force = *pruneForce
	} else if *pruneForce {
		return usagef("--prune-force goes with --prune")
	}
	// The run is recorded as a job (GET /v1/ingest/jobs shows it to the
	// tenant) with each file's outcome; the files are processed here.
	jobID, ictx, err := recordRun(ctx, e, d, t, paths, files, walkFails)
	if err != nil {
		return err
	}
	progress := progressFor(e, len(files))
	sum, err := d.pipeline.IngestFiles(ictx, t, files, *workers, pr, progress)
	sum.Add(walkFails...)
	if err != nil {
		return err
	}
	if len(ignored) > 0 {
		sum.Ignored = ignored
	}
	sum.Excluded = excluded
	// A directory the walk left out whole (a Sphinx build's _static/) is
	// reported among the skipped but is no file: the counts say files, in
	// the text and in JSON alike (two trials read "skipped": 4 above the
	// text's "2 skipped"), and the directories apart. An entry standing for
	// several files (a directory's text sources) counts them.
	dirs, grouped := skippedDirs(walkFails)
	sum.Skipped += grouped - dirs
	sum.LeftOutDirs = dirs
	if jobID != uuid.Nil {
		sum.JobID = jobID.String()
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return err
		}
	} else {
		rate := float64(sum.Chunks) / max(sum.Elapsed.Seconds(), 1e-9)
		fmt.Fprintf(e.stdout, "tenant %s: %d files: %d added, %d updated, %d unchanged, %d deleted, %d skipped, %d refused, %d failed; %d chunks (%d sent to the embedding model) in %s (%.0f chunks/s)\n",
			t.Slug, len(files)+len(walkFails)-dirs+grouped, sum.Added, sum.Updated, sum.Unchanged, sum.Deleted, sum.Skipped, sum.Refused, sum.Failed,
			sum.Chunks, sum.Embedded, sum.Elapsed.Round(time.Millisecond), rate)
		if dirs > 0 {
			fmt.Fprintf(e.stdout, "left out %d directories with all they hold (listed below)\n", dirs)
		}
		if line := ignoredLine(ignored); line != "" {
			fmt.Fprintln(e.stdout, line)
		}
		if excluded > 0 {
			fmt.Fprintf(e.stdout, "left out %d files --exclude names (directories it names with all they hold)\n", excluded)
		}
		printNotIngested(e, sum)
		if tags, ex, glob := ingest.Translations(files); len(tags) > 0 && sum.Added+sum.Updated > 0 {
			// Each language's copy is stored and searched: ranking puts
			// the question's language first (search.discountForeign), and
			// the user may want one language only.
			fmt.Fprintf(e.stdout, "NOTE: by their names the files are in %d languages (%s; e.g. %s): each is stored and searched, "+
				"chunks in the question's language ranked first; to keep one, --exclude the others (--exclude '%s' leaves that one out)\n",
				len(tags), languageList(tags), ex, glob)
		}
		if prefix := runPrefix(*baseURI, paths); prefix != "" && sum.Added > 0 {
			// A corpus ingested again under another base URI (or none)
			// is stored twice, and every question gets each page twice.
			if tw, err := d.pipeline.TwinsOutside(ctx, t, prefix); err == nil && tw.Twins >= 5 && 5*tw.Twins >= tw.Under {
				fmt.Fprintf(e.stdout, "NOTE: %d of the %d documents under %s have the same content as documents stored under another prefix (e.g. %s): "+
					"was the same tree ingested before with another --base-uri? Delete the other copies (DELETE /v1/documents?source_uri=…, or ingest that prefix again with --prune)\n",
					tw.Twins, tw.Under, prefix, tw.Other)
			}
		}
		if jobID != uuid.Nil {
			fmt.Fprintf(e.stdout, "recorded as ingestion job %s\n", jobID)
		}
	}
	// A tenant that grew past the exact threshold gets its dedicated HNSW
	// index (after the summary: a failed build must not hide it).
	admin, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 1, Logger: e.log})
	if err != nil {
		return err
	}
	defer admin.Close()
	if _, err := ensureIndexes(ctx, e, admin, t.ID, false); err != nil {
		return err
	}
	if sum.Failed > 0 {
		return fmt.Errorf("%d of %d files failed", sum.Failed, len(files)+len(walkFails))
	}
	return nil
}

// languageList names the languages of a translations note, the original
// (untagged) one as such.
func languageList(tags []string) string {
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t
		if t == "" {
			out[i] = "the original"
		}
	}
	return strings.Join(out, ", ")
}

// skippedDirs counts the walk's skipped entries that are directories left
// out whole, and the files beyond one that grouped entries stand for.
func skippedDirs(fails []ingest.Failure) (dirs, grouped int) {
	for _, f := range fails {
		switch {
		case f.Kind != ingest.KindSkipped:
		case f.Files > 0:
			grouped += f.Files - 1
		case leftOutDir(f):
			dirs++
		}
	}
	return dirs, grouped
}

// leftOutDir reports whether f is a directory the walk left out whole.
func leftOutDir(f ingest.Failure) bool {
	if f.Kind != ingest.KindSkipped || f.Files > 0 {
		return false
	}
	fi, err := os.Stat(f.Path)
	return err == nil && fi.IsDir()
}

// printNotIngested lists the files a run did not ingest, one line each:
// SKIPPED, REFUSED or FAILED (LEFT OUT for a directory left out whole),
// the path and the reason; then the documents
// a prune deleted (DELETED and the source_uri) and those it kept (KEPT).
//
// Pages that only redirect to another are listed up to shownRedirects and
// then counted: texi2any writes one per node, and the zsh manual's 144
// buried its 35 pages' lines (--json lists every one).
func printNotIngested(e *env, sum ingest.Summary) {
	redirects := 0
	for _, f := range sum.NotIngested() {
		if f.Redirect {
			if redirects++; redirects > shownRedirects {
				continue
			}
		}
		label := strings.ToUpper(string(f.Kind))
		if leftOutDir(f) {
			// A directory left out whole is no file the counts call
			// skipped: "left out N directories" says it (three fresh
			// users read "3 skipped" above six SKIPPED lines).
			label = "LEFT OUT"
		}
		fmt.Fprintf(e.stdout, "  %s %s: %s\n", label, f.Path, f.Reason)
	}
	if n := redirects - shownRedirects; n > 0 {
		fmt.Fprintf(e.stdout, "  SKIPPED %d more %s that only redirect to another page (--json lists them)\n", n, map[bool]string{true: "page", false: "pages"}[n == 1])
	}
	for _, uri := range sum.DeletedDocuments {
		fmt.Fprintf(e.stdout, "  DELETED %s: its file is gone, or left out of this run as a copy of another or as no document\n", uri)
	}
	for _, k := range sum.KeptDocuments {
		switch k.Writer {
		case "api":
			fmt.Fprintf(e.stdout, "  KEPT %s: no file of this run is its, but the API or an ingestion job wrote it, and a prune deletes only what ragd ingest stored\n", k.SourceURI)
		default:
			fmt.Fprintf(e.stdout, "  KEPT %s: a prune would delete it (its file is gone, or left out of this run as a copy of another or as no document), but it was stored before ragd recorded whether a file or the API wrote it; if it is a file's, delete it (DELETE /v1/documents?source_uri=…)\n", k.SourceURI)
		}
	}
}

// shownRedirects is how many skipped redirect pages a run lists by name.
const shownRedirects = 3

// runPrefix is the source_uri prefix of a run's documents: the base URI,
// or a single path's file: URI; "" for several paths without a base URI.
func runPrefix(baseURI string, paths []string) string {
	switch {
	case baseURI != "":
		return strings.TrimRight(baseURI, "/") + "/"
	case len(paths) == 1:
		return ingest.FileURI(strings.TrimRight(absPath(paths[0]), "/")) + "/"
	}
	return ""
}

// pruneRoots are the directories the ingested paths' source_uris are
// relative to (ingest.Root); a path that cannot be resolved has none.
func pruneRoots(paths []string) []string {
	roots := make([]string, 0, len(paths))
	for _, p := range paths {
		if r, err := ingest.Root(p); err == nil {
			roots = append(roots, r)
		}
	}
	return roots
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		if r, err := filepath.EvalSymlinks(a); err == nil {
			return filepath.ToSlash(r)
		}
		return filepath.ToSlash(a)
	}
	return p
}

// progressFor draws a progress bar on a terminal (files processed — read,
// extracted, embedded and stored, or skipped —, chunks, rate, ETA) and
// prints a plain line every 100 files otherwise. Its total is the files
// the run reads; the summary's file count also has those left out before
// reading.
func progressFor(e *env, total int) ingest.Progress {
	if f, ok := e.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.NewOptions(total, progressbar.OptionSetWriter(e.stderr), progressbar.OptionSetDescription("ingesting"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("files"),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
		start := time.Now()
		return func(done, total, chunks int) {
			bar.Describe(fmt.Sprintf("ingesting (%d chunks, %.0f chunks/s)", chunks, float64(chunks)/max(time.Since(start).Seconds(), 1e-9)))
			_ = bar.Set(done)
		}
	}
	start := time.Now()
	return func(done, total, chunks int) {
		if done%100 == 0 || done == total {
			el := time.Since(start)
			eta := time.Duration(float64(el) / float64(done) * float64(total-done))
			fmt.Fprintf(e.stderr, "ingest: %d/%d files processed, %d chunks, %.0f chunks/s, ETA %s\n", done, total, chunks,
				float64(chunks)/max(el.Seconds(), 1e-9), eta.Round(time.Second))
		}
	}
}

// ignoredLine says how many files of unsupported types a run left out, by
// extension, most frequent first ("left out 213 files of unsupported types
// (.png 120, .gif 50, .css 3)…"); "" when none.
func ignoredLine(ignored map[string]int) string {
	exts := slices.Collect(maps.Keys(ignored))
	total := 0
	for _, n := range ignored {
		total += n
	}
	if total == 0 {
		return ""
	}
	slices.SortFunc(exts, func(a, b string) int {
		if c := cmp.Compare(ignored[b], ignored[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	parts := make([]string, 0, 6)
	for i, x := range exts {
		if i == 5 {
			parts = append(parts, "…")
			break
		}
		name := x
		if name == "" {
			name = "no extension"
		}
		parts = append(parts, fmt.Sprintf("%s %d", name, ignored[x]))
	}
	return fmt.Sprintf("left out %d files of unsupported types (%s); --include a pattern to have each one reported", total, strings.Join(parts, ", "))
}

// recordRun records an ingest run as a job of origin cli: one document per
// file (processed by IngestFiles) and one skipped, refused or failed
// document per file Walk did not take, as Walk classified it. It returns the job id (uuid.Nil when there is nothing to
// record) and a context under which IngestFiles writes each file's outcome
// to it. A file's outcome that cannot be written is logged, never fails the
// run: the documents are what matters.
func recordRun(ctx context.Context, e *env, d *deps, t tenant.Tenant, paths []string, files []ingest.File, walkFails []ingest.Failure) (uuid.UUID, context.Context, error) {
	jfiles := make([]job.File, 0, len(files)+len(walkFails))
	idx := make(map[string]int, len(files))
	for _, f := range files {
		idx[f.SourceURI] = len(jfiles)
		jfiles = append(jfiles, job.File{SourceURI: f.SourceURI, ContentType: f.ContentType})
	}
	for _, f := range walkFails {
		p := f.Path
		if a, err := filepath.Abs(p); err == nil {
			p = a // not absPath: a link's own path, not its target's
		}
		uri := ingest.FileURI(p)
		if _, dup := idx[uri]; dup {
			continue
		}
		idx[uri] = len(jfiles)
		jf := job.File{SourceURI: uri}
		switch f.Kind {
		case ingest.KindSkipped:
			jf.Skip = f.Reason
		case ingest.KindRefused:
			jf.Refuse = f.Reason
		default:
			jf.Fail = f.Reason
		}
		jfiles = append(jfiles, jf)
	}
	if len(jfiles) == 0 {
		return uuid.Nil, ctx, nil
	}
	j, err := d.app.Jobs.Create(ctx, t, job.OriginCLI, strings.Join(paths, " "), jfiles)
	if err != nil {
		return uuid.Nil, ctx, fmt.Errorf("record the run: %w", err)
	}
	return j.ID, ingest.WithFileObserver(ctx, func(f ingest.File, out ingest.Outcome, err error) {
		if rerr := d.app.Jobs.Record(context.WithoutCancel(ctx), t.ID, j.ID, idx[f.SourceURI], out, err); rerr != nil {
			e.log.Warn("ingest: cannot record a file's outcome", "job", j.ID, "source_uri", f.SourceURI, "err", rerr)
		}
	}), nil
}
