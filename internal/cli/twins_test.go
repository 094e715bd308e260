package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// The same tree ingested again without its --base-uri is stored a second
// time under file: URIs; the run says so instead of silently doubling every
// question's sources (a fresh user's tenant held the Django docs twice).
// An ordinary re-run under the same base URI says nothing.
func TestIngestNotesACorpusStoredTwice(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-twins", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	dir := t.TempDir()
	for i := range 6 {
		text := fmt.Sprintf("# Page %d\n\nWhat page %d says about topic %d.\n", i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d.md", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"--base-uri", "https://docs.test/"}, {"--base-uri", "https://docs.test/"}} {
		code, out, errOut := runCLI(t, env, append(append([]string{"ingest", "--tenant", tn.Slug}, args...), dir)...)
		if code != 0 || strings.Contains(out, "NOTE:") {
			t.Fatalf("ingest %v: exit %d, stdout %q, stderr %q; want no note", args, code, out, errOut)
		}
	}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, dir)
	if code != 0 || !strings.Contains(out, "NOTE: 6 of the 6 documents under file://") || !strings.Contains(out, "https://docs.test/p") {
		t.Fatalf("ingest without the base URI: exit %d, stdout %q, stderr %q; want a note naming the other copies", code, out, errOut)
	}
}

// A package shipping its translations beside the original (ch01.en.md,
// ch01.de.md) is ingested whole, every language searched; the run says
// which languages the names give and how to keep one. A tree in one
// language by its names says nothing.
func TestIngestNotesTranslations(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-langs", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	dir := t.TempDir()
	pages := map[string]string{
		"ch01.en.md": "# Packaging\n\nA package is built with debuild from the source tree.\n",
		"ch01.de.md": "# Paketierung\n\nEin Paket wird mit debuild aus dem Quellbaum gebaut.\n",
		"ch02.en.md": "# Uploading\n\nThe package is uploaded with dput.\n",
	}
	for name, text := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", "https://langs.test/", dir)
	if code != 0 || !strings.Contains(out, "NOTE: by their names the files are in 2 languages (de, en; e.g. ") || !strings.Contains(out, "--exclude '*.de.*'") {
		t.Fatalf("ingest: exit %d, stdout %q, stderr %q; want a note naming de and en", code, out, errOut)
	}
	one := t.TempDir()
	for _, name := range []string{"ch01.en.md", "ch02.en.md"} {
		if err := os.WriteFile(filepath.Join(one, name), []byte(pages[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut = runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", "https://one.test/", one)
	if code != 0 || strings.Contains(out, "languages") {
		t.Fatalf("ingest of one language: exit %d, stdout %q, stderr %q; want no note about languages", code, out, errOut)
	}
}
