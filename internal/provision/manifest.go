package provision

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Manifest is tenants/<slug>/tenant.yaml: what a tenant should be. Unknown
// keys are an error, so a misspelt key is not silently ignored.
type Manifest struct {
	Name           string   `yaml:"name"`
	Language       string   `yaml:"language"`        // default english
	EmbeddingModel string   `yaml:"embedding_model"` // optional: must be the tenant's active model
	Sources        []Source `yaml:"sources"`
	Eval           *Eval    `yaml:"eval"`
}

// Source is one directory or file of a manifest, ingested as `ragd ingest`
// does with the same options.
type Source struct {
	Path    string   `yaml:"path"` // relative to the manifest's directory unless absolute
	Include []string `yaml:"include"`
	Exclude []string `yaml:"exclude"`
	BaseURI string   `yaml:"base_uri"`
	// Prune deletes the tenant's documents under BaseURI whose file is gone.
	Prune bool `yaml:"prune"`
	// Metadata is stored with every document of the source (for search's
	// metadata filter).
	Metadata map[string]any `yaml:"metadata"`
}

// Eval is a manifest's evaluation set.
type Eval struct {
	Set  string `yaml:"set"`  // default "default"
	Path string `yaml:"path"` // JSONL, relative to the manifest's directory unless absolute
	// Tune calibrates fusion and the refusal threshold on the set before
	// the run.
	Tune bool `yaml:"tune"`
}

// ReadManifest reads and checks dir/tenant.yaml and fills its defaults.
// Errors name the file and the field.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	raw, err := os.ReadFile(filepath.Join(dir, "tenant.yaml"))
	if err != nil {
		return m, err
	}
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("%s/tenant.yaml: %w", dir, err)
	}
	if m.Name == "" {
		return m, fmt.Errorf("%s/tenant.yaml: name is required", dir)
	}
	if m.Language == "" {
		m.Language = "english"
	}
	if _, ok := TSConfig(m.Language); !ok {
		return m, fmt.Errorf("%s/tenant.yaml: language %q (want english or simple)", dir, m.Language)
	}
	for i, s := range m.Sources {
		if s.Path == "" {
			return m, fmt.Errorf("%s/tenant.yaml: sources[%d].path is required", dir, i)
		}
		if s.Prune && s.BaseURI == "" {
			return m, fmt.Errorf("%s/tenant.yaml: sources[%d]: prune needs base_uri", dir, i)
		}
	}
	if m.Eval != nil && m.Eval.Set == "" {
		m.Eval.Set = "default"
	}
	return m, nil
}
