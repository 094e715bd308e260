package provision

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/bmatcuk/doublestar/v4"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"io"
	"net/url"
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
	// Prune deletes the tenant's documents under BaseURI whose file is gone
	// (at most ingest.PruneGuard's share unless PruneForce).
	Prune      bool `yaml:"prune"`
	PruneForce bool `yaml:"prune_force"`
	// Metadata is stored with every document of the source (for search's
	// metadata filter).
	Metadata map[string]any `yaml:"metadata"`
	// Access, when present, is the access list of the source's documents:
	// principals user:<subject> and group:<name>; [] = everyone in the
	// tenant. Absent: new documents are tenant-wide and existing ones keep
	// their list (a re-apply never changes a list it does not state).
	Access *[]string `yaml:"access"`
	// AccessRules give the files matching a glob (doublestar, relative to
	// Path, like Include) their own list; the first matching rule wins,
	// over Access.
	AccessRules []AccessRule `yaml:"access_rules"`
}

// AccessRule is one glob of a source and the access list of its files.
type AccessRule struct {
	Glob   string   `yaml:"glob"`
	Access []string `yaml:"access"`
}

// accessFor returns the access list of the file at rel (slash-separated,
// relative to the source's path) and whether the manifest states one.
func (s Source) accessFor(rel string) ([]string, bool) {
	for _, r := range s.AccessRules {
		if ok, _ := doublestar.Match(r.Glob, rel); ok {
			return r.Access, true
		}
	}
	if s.Access != nil {
		return *s.Access, true
	}
	return nil, false
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
	for {
		// A second document ("---") would be ignored, unknown fields and
		// all; an empty one (a trailing "---") is nothing.
		var more yaml.Node
		err := dec.Decode(&more)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || len(more.Content) > 0 && more.Content[0].Kind != yaml.ScalarNode || len(more.Content) > 0 && more.Content[0].Value != "" {
			return m, fmt.Errorf("%s/tenant.yaml: one YAML document expected, found another after \"---\"", dir)
		}
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
		if s.PruneForce && !s.Prune {
			return m, fmt.Errorf("%s/tenant.yaml: sources[%d]: prune_force goes with prune", dir, i)
		}
		if s.Prune && s.BaseURI == "" {
			return m, fmt.Errorf("%s/tenant.yaml: sources[%d]: prune needs base_uri", dir, i)
		}
		// What applying would refuse only on reaching this source, after
		// the tenant was made and the sources before it ingested.
		if s.BaseURI != "" {
			if u, err := url.Parse(s.BaseURI); err != nil || u.Scheme == "" {
				return m, fmt.Errorf("%s/tenant.yaml: sources[%d].base_uri %q: want an absolute URL", dir, i, s.BaseURI)
			}
		}
		for field, globs := range map[string][]string{"include": s.Include, "exclude": s.Exclude} {
			for _, g := range globs {
				if !doublestar.ValidatePattern(g) {
					return m, fmt.Errorf("%s/tenant.yaml: sources[%d].%s: invalid glob %q", dir, i, field, g)
				}
			}
		}
		if s.Metadata != nil {
			b, err := json.Marshal(s.Metadata)
			if err != nil {
				return m, fmt.Errorf("%s/tenant.yaml: sources[%d].metadata is not JSON (string keys, finite numbers): %w", dir, i, err)
			}
			if len(b) > ingest.MaxMetadataBytes {
				return m, fmt.Errorf("%s/tenant.yaml: sources[%d].metadata is %d bytes as JSON, the limit is %d", dir, i, len(b), ingest.MaxMetadataBytes)
			}
			if _, err := ingest.CheckMetadata(s.Metadata); err != nil {
				return m, fmt.Errorf("%s/tenant.yaml: sources[%d].metadata: %w", dir, i, err)
			}
		}
		if s.Access != nil {
			if _, err := auth.NormalizeAccess(*s.Access); err != nil {
				return m, fmt.Errorf("%s/tenant.yaml: sources[%d].access: %w", dir, i, err)
			}
		}
		for j, r := range s.AccessRules {
			if !doublestar.ValidatePattern(r.Glob) || r.Glob == "" {
				return m, fmt.Errorf("%s/tenant.yaml: sources[%d].access_rules[%d]: invalid glob %q", dir, i, j, r.Glob)
			}
			if _, err := auth.NormalizeAccess(r.Access); err != nil {
				return m, fmt.Errorf("%s/tenant.yaml: sources[%d].access_rules[%d]: %w", dir, i, j, err)
			}
		}
	}
	if m.Eval != nil && m.Eval.Set == "" {
		m.Eval.Set = "default"
	}
	return m, nil
}
