package provision_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/provision"
)

// TestManifestMetadataIsJSONOrRefused (breaker h-break6): a source's
// metadata is stored as a JSON object with every document of the source
// (TestReadManifest: "a JSON-able object"). YAML can state values JSON cannot
// hold: .nan and .inf floats, a mapping with a non-string key (it decodes to
// map[interface{}]interface{}). ReadManifest, which "reads and checks"
// the manifest with errors naming the field, accepts all of them; the
// failure comes later, per document, when the metadata is marshalled
// (json: unsupported value: NaN / unsupported type: map[interface {}]interface {})
// after the tenant was created. Want: refused by ReadManifest naming
// sources[0].metadata, or a metadata value that marshals.
func TestManifestMetadataIsJSONOrRefused(t *testing.T) {
	t.Parallel()
	for _, meta := range []string{
		"{score: .nan}",
		"{score: .inf}",
		"{versions: {1: first, 2: second}}",
	} {
		dir := t.TempDir()
		yaml := "name: x\nsources:\n  - path: d\n    metadata: " + meta + "\n"
		if err := os.WriteFile(filepath.Join(dir, "tenant.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := provision.ReadManifest(dir)
		if err != nil {
			if !strings.Contains(err.Error(), "sources[0].metadata") {
				t.Errorf("metadata %s: refused, but the error does not name sources[0].metadata: %v", meta, err)
			}
			continue
		}
		if _, err := json.Marshal(m.Sources[0].Metadata); err != nil {
			t.Errorf("metadata %s: ReadManifest accepted metadata that is not JSON (%v)", meta, err)
		}
	}
}

// TestReadManifestRefusesWhatApplyWouldRefuse (breaker h-break6):
// ReadManifest "reads and checks" tenant.yaml with errors naming the field,
// and validates access_rules globs, but lets through what Apply then
// refuses only when it reaches that source — after creating the tenant
// and ingesting the sources before it: a base_uri that is not an absolute
// URL (ingest.Walk: "invalid --base-uri … want an absolute URL", an error
// message about a CLI flag the manifest has not got) and an include or
// exclude glob that does not parse. A second YAML document ("---") is
// ignored silently, unknown fields and all (KnownFields is on to catch
// typos).
func TestReadManifestRefusesWhatApplyWouldRefuse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ yaml, field string }{
		{"name: x\nsources:\n  - path: a\n  - path: b\n    base_uri: docs/v2\n", "sources[1].base_uri"},
		{"name: x\nsources:\n  - path: a\n  - path: b\n    exclude: ['[']\n", "sources[1].exclude"},
		{"name: x\nsources:\n  - path: a\n  - path: b\n    include: ['docs/[a-']\n", "sources[1].include"},
		{"name: x\n---\nname: y\nsurprise: 1\n", "document"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "tenant.yaml"), []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := provision.ReadManifest(dir); err == nil {
			t.Errorf("%q: accepted; want an error naming %s", c.yaml, c.field)
		}
	}
}
