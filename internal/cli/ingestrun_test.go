package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestIngestRecordsItsRun: `ragd ingest` records the run as a job of origin
// cli, with each file's outcome, which GET /v1/ingest/jobs lists.
func TestIngestRecordsItsRun(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-run", "")
	root, outside := t.TempDir(), t.TempDir()
	for name, body := range map[string]string{"a.md": "# Alpha\n\nAlpha text.", "b.txt": "Beta text.", "empty.md": "  "} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "x.md"), []byte("# Outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(), "HOME": os.Getenv("HOME"),
		"RAGD_LOG_LEVEL": "error"}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", "https://docs.test/", root)
	if code != 1 || !strings.Contains(out, "recorded as ingestion job") {
		t.Fatalf("exit %d (want 1: the empty file failed), stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	svc := job.New(testdb.App(t), nil, job.Options{})
	// As an operator: a recorded run is visible to those who see every
	// document.
	ctx := store.WithVisibility(context.Background(), store.AllDocuments())
	jobs, err := svc.List(ctx, tn.ID, nil, 10)
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs %+v, %v", jobs, err)
	}
	j := jobs[0]
	if j.Origin != job.OriginCLI || j.Total != 4 || j.Stored != 2 || j.Failed != 1 || j.Skipped != 1 || j.Status != job.StatusCompletedWithFailures || j.Finished == nil ||
		j.Label != root {
		t.Fatalf("recorded run %+v", j)
	}
	its, err := svc.Items(ctx, tn.ID, j.ID, -1, 10)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]job.Item{}
	for _, it := range its {
		got[it.SourceURI] = it
	}
	if it := got["https://docs.test/a.md"]; it.Stage != job.StageStored || it.Outcome != string(ingest.StatusAdded) || it.DocumentID == nil {
		t.Errorf("a.md: %+v", it)
	}
	if it := got["https://docs.test/empty.md"]; it.Stage != job.StageFailed || !strings.Contains(it.Error, "no text") {
		t.Errorf("empty.md: %+v", it)
	}
	if it := got["file://"+filepath.ToSlash(filepath.Join(root, "link.md"))]; it.Stage != job.StageSkipped || !strings.Contains(it.Error, "symbolic link") {
		t.Errorf("link.md: %+v (items %+v)", it, its)
	}
}

// TestIngestCountsFilesNotDirectories: a directory the walk leaves out
// whole (a Sphinx build's _static/ and _sources/) is no file in the
// summary's counts; it is said apart, and listed.
func TestIngestCountsFilesNotDirectories(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-dirs", "")
	root := t.TempDir()
	writeSphinxBuild(t, root)
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(), "HOME": os.Getenv("HOME"),
		"RAGD_LOG_LEVEL": "error"}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", "https://docs.test/", root)
	if code != 0 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// The two text sources beside their pages are one entry of two files.
	if !strings.Contains(out, "5 files: 2 added, 0 updated, 0 unchanged, 0 deleted, 3 skipped") ||
		!strings.Contains(out, "left out 2 directories with all they hold") {
		t.Errorf("summary:\n%s\nwant 5 files (2 added; search.html and the two text sources skipped; searchindex.js is of a type not read) and the 2 directories apart", out)
	}
	// The lines say the same: the directories are left out, not skipped.
	if n, m := strings.Count(out, "  SKIPPED "), strings.Count(out, "  LEFT OUT "); n != 2 || m != 2 {
		t.Errorf("summary:\n%s\nwant 2 SKIPPED lines (search.html, the text sources) and 2 LEFT OUT lines (the directories), got %d and %d", out, n, m)
	}
	// --json counts as the text does.
	code, out, errOut = runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", "https://docs.test/", "--json", root)
	if code != 0 {
		t.Fatalf("--json: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	var sum struct {
		Unchanged   int `json:"unchanged"`
		Skipped     int `json:"skipped"`
		LeftOutDirs int `json:"left_out_dirs"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if sum.Unchanged != 2 || sum.Skipped != 3 || sum.LeftOutDirs != 2 {
		t.Errorf("--json: unchanged %d, skipped %d, left_out_dirs %d; want 2, 3 and 2, as the text says", sum.Unchanged, sum.Skipped, sum.LeftOutDirs)
	}
}

// TestApplyCountsFilesAsIngestDoes: `ragd tenant apply` reports a source's
// files as `ragd ingest` does the same directory: the files the walk left
// out count (a Sphinx build's text sources as the files they are), the
// directories it left out whole do not, and are said apart.
func TestApplyCountsFilesAsIngestDoes(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-apply", "")
	root := t.TempDir()
	docs := filepath.Join(root, "docs")
	writeSphinxBuild(t, docs)
	dir := filepath.Join(root, tn.Slug)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "name: Apply counts\nlanguage: english\nsources:\n  - path: " + docs + "\n    base_uri: https://docs.test/\n"
	if err := os.WriteFile(filepath.Join(dir, "tenant.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(), "HOME": os.Getenv("HOME"),
		"RAGD_LOG_LEVEL": "error"}
	code, out, errOut := runCLI(t, env, "tenant", "apply", dir)
	if code != 0 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "5 files: 2 added, 0 updated, 0 unchanged, 0 deleted, 3 skipped") ||
		!strings.Contains(out, "left out 2 directories with all they hold") {
		t.Errorf("apply's summary:\n%s\nwant ingest's counts (5 files, 2 added, 3 skipped) and the directories said apart", out)
	}
}

// writeSphinxBuild writes a small Sphinx build into dir: two pages, their
// text sources beside them and in _sources/, _static/ assets, the search
// page and its index.
func writeSphinxBuild(t *testing.T, dir string) {
	t.Helper()
	for name, body := range map[string]string{"index.html": "<html><head><title>Home</title></head><body><h1>Home</h1><p>Welcome to the docs.</p></body></html>",
		"guide.html":             "<html><head><title>Guide</title></head><body><h1>Guide</h1><p>How to use the tool.</p></body></html>",
		"_static/basic.css":      "body { color: black }",
		"_sources/guide.txt":     "Guide\n=====\n\nHow to use the tool.",
		"guide.txt":              "Guide\n=====\n\nHow to use the tool.",
		"index.txt":              "Home\n====\n\nWelcome to the docs.",
		"_sources/index.txt":     "Home\n====\n\nWelcome to the docs.",
		"search.html":            "<html><head><title>Search</title></head><body><h1>Search</h1><p>Please activate JavaScript to enable the search functionality.</p></body></html>",
		"_static/searchtools.js": "var Search = {};", "searchindex.js": "Search.setIndex({})"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
