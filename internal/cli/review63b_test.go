package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// review63b (a defect a review of 1331de8 found, fixed: the CLI shows the
// text from the matched place's offset; what went wrong then): `ragd search` names the matched section (match_heading_path)
// but shows the text under the first line equal to its last heading, from
// the start of the chunk: with a title that repeats ("Example" under two
// entries) the snippet is the other entry's example.
func TestReview63bSearchShowsTheMatchedSectionsText(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-r63b", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	root := t.TempDir()
	page := `<html><head><title>Ref</title></head><body><main><h1 id="ref">Ref</h1>
<h2 id="spawn">spawn</h2><p>Starts a green thread and returns at once.</p>
<h3 id="spawn-example">Example</h3><p>spawn(fetch, url) starts fetching in the background.</p>
<h2 id="sleep">sleep</h2><p>Yields to the hub for a while.</p>
<h3 id="sleep-example">Example</h3><p>sleep(0) gives every other coroutine a turn before continuing.</p>
</main></body></html>`
	if err := os.WriteFile(filepath.Join(root, "ref.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", "https://r63b.test/", root); code != 0 {
		t.Fatalf("ingest: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, env, "search", "--tenant", tn.Slug, "--top-k", "1", "sleep(0) gives every other coroutine a turn")
	if code != 0 {
		t.Fatalf("search: exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("\n%s", out)
	if !strings.Contains(out, "sleep > Example") || !strings.Contains(out, "#sleep-example") {
		t.Fatalf("want the matched section named and linked (setup):\n%s", out)
	}
	if !strings.Contains(out, "   Example sleep(0) gives") {
		t.Errorf("snippet is not the matched section's text:\n%s", out)
	}
}
