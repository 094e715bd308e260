package provision_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/provision"
)

func writeManifest(t *testing.T, yaml string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tenant.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReadManifestRefusesOversizedMetadata (review h-review6): 85cde86
// checks a manifest "whole before applying" and checks a source's metadata
// by marshalling it to JSON, but not against the limit every document's
// metadata is held to (ingest: "must be a JSON object of at most 65536
// bytes", maxMetadataBytes). A source with 70 KB of metadata passes
// ReadManifest; Apply creates the tenant and then every document of the
// source fails, one by one, with ErrInvalidMetadata.
func TestReadManifestRefusesOversizedMetadata(t *testing.T) {
	t.Parallel()
	dir := writeManifest(t, "name: x\nsources:\n  - path: a\n    metadata: {notes: '"+strings.Repeat("x", 70<<10)+"'}\n")
	if _, err := provision.ReadManifest(dir); err == nil {
		t.Errorf("metadata of 70 KB (every document would refuse it: at most 65536 bytes) accepted")
	} else if !strings.Contains(err.Error(), "sources[0].metadata") {
		t.Errorf("refused, but not naming sources[0].metadata: %v", err)
	}
}

// TestReadManifestTrailingDocumentMarker: a manifest ending with a
// document marker ("---", as some editors and generators write) is one
// document; the single-document check must not refuse it.
func TestReadManifestTrailingDocumentMarker(t *testing.T) {
	t.Parallel()
	for _, y := range []string{"---\nname: x\n", "name: x\n---\n", "name: x\n...\n"} {
		if _, err := provision.ReadManifest(writeManifest(t, y)); err != nil {
			t.Errorf("%q: %v", y, err)
		}
	}
}
