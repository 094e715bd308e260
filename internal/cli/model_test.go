package cli_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestModelCLI drives the operator's flow: register an API model (an
// in-process OpenAI-compatible server) with e5-style prefixes, switch a
// tenant on the local model to it with `tenant set-model --wait` (the
// command re-embeds the stored chunks and flips), see it in `tenant show`
// and in search, drop the old vectors, retire the model.
func TestModelCLI(t *testing.T) {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "fake-cli-" + hex.EncodeToString(b)
	var docs, queries, other atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != name {
			http.Error(w, "wrong model", http.StatusBadRequest)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		data := make([]item, len(req.Input))
		for i, in := range req.Input {
			switch {
			case strings.HasPrefix(in, "passage: "):
				docs.Add(1)
			case strings.HasPrefix(in, "query: "):
				queries.Add(1)
			default:
				other.Add(1)
			}
			v := make([]float64, 32)
			v[0] = 0.1
			for _, word := range strings.Fields(strings.ToLower(in)) {
				h := fnv.New32a()
				h.Write([]byte(word))
				v[h.Sum32()%32]++
			}
			data[i] = item{i, v}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"model": name, "data": data})
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv), "RAGD_REEMBED_BATCH": "4"}

	code, out, errOut := runCLI(t, env, "model", "register", "--name", name, "--dims", "32", "--endpoint", srv.URL+"/v1",
		"--query-prefix", "query: ", "--document-prefix", "passage: ", "--max-input-tokens", "512")
	if code != 0 || !strings.Contains(out, `"provider": "openai-compatible"`) {
		t.Fatalf("register: exit %d %s %s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, env, "model", "register", "--name", name, "--dims", "32"); code != 1 || !strings.Contains(errOut, "registered already") {
		t.Errorf("second register: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, env, "model", "register", "--name", "x", "--dims", "4000"); code != 2 || !strings.Contains(errOut, "dims must be 1-2000") {
		t.Errorf("register 4000 dims: exit %d %s", code, errOut)
	}
	if code, out, _ := runCLI(t, env, "model", "list"); code != 0 || !strings.Contains(out, name) || !strings.Contains(out, "use-lite") {
		t.Errorf("list: exit %d %s", code, out)
	}

	tn := testdb.NewTenant(t, "modelcli", "")
	dir := t.TempDir()
	for i := range 6 {
		text := fmt.Sprintf("# Service %d\n\nThe zephyr%d daemon rotates keys every %d days.\n", i, i, i+2)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%d.md", i)), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, dir); code != 0 {
		t.Fatalf("ingest: exit %d %s", code, errOut)
	}
	code, out, errOut = runCLI(t, env, "tenant", "set-model", "--tenant", tn.Slug, "--model", name, "--wait")
	if code != 0 || !strings.Contains(out, "now searches with "+name) {
		t.Fatalf("set-model: exit %d %s %s", code, out, errOut)
	}
	if docs.Load() != 6 || other.Load() != 0 {
		t.Errorf("re-embed sent %d prefixed documents (want 6, one chunk each) and %d unprefixed texts", docs.Load(), other.Load())
	}
	var shown struct {
		Models struct {
			Active   string  `json:"active_model"`
			Coverage float64 `json:"active_coverage"`
			Previous string  `json:"previous_model"`
		} `json:"models"`
	}
	show := func() {
		t.Helper()
		code, out, errOut := runCLI(t, env, "tenant", "show", "--tenant", tn.Slug)
		shown.Models.Previous = ""
		if code != 0 || json.Unmarshal([]byte(out), &shown) != nil {
			t.Fatalf("show: exit %d %s %s", code, out, errOut)
		}
	}
	show()
	if shown.Models.Active != name || shown.Models.Coverage != 1 || shown.Models.Previous != embed.LocalModelName {
		t.Errorf("show after the switch: %+v", shown.Models)
	}
	code, out, errOut = runCLI(t, env, "search", "--tenant", tn.Slug, "--json", "which daemon rotates keys, zephyr3?")
	var sr struct {
		VectorModel string `json:"vector_model"`
		Degraded    bool   `json:"degraded"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &sr) != nil || sr.VectorModel != name || sr.Degraded || queries.Load() != 1 {
		t.Errorf("search: exit %d %+v (%d prefixed queries) %s", code, sr, queries.Load(), errOut)
	}
	if code, out, errOut := runCLI(t, env, "tenant", "drop-model-vectors", "--tenant", tn.Slug); code != 0 || !strings.Contains(out, "6 vectors") {
		t.Errorf("drop: exit %d %s %s", code, out, errOut)
	}
	show()
	if shown.Models.Previous != "" {
		t.Errorf("show after the drop: %+v", shown.Models)
	}
	// A switch cancelled by naming the active model says so, and the
	// abandoned model's drop date is a real one.
	tn2 := testdb.NewTenant(t, "modelcancel", "")
	if code, _, errOut := runCLI(t, env, "tenant", "set-model", "--tenant", tn2.Slug, "--model", name); code != 0 {
		t.Fatalf("set-model without --wait: exit %d %s", code, errOut)
	}
	code, _, errOut = runCLI(t, env, "tenant", "set-model", "--tenant", tn2.Slug, "--model", embed.LocalModelName)
	if code != 0 || !strings.Contains(errOut, "switch to "+name+" cancelled") {
		t.Errorf("cancel: exit %d %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, env, "tenant", "show", "--tenant", tn2.Slug); code != 0 || strings.Contains(out, `"0001-`) {
		t.Errorf("show after the cancel: exit %d %s %s", code, out, errOut)
	}
	if code, out, _ := runCLI(t, env, "model", "show", name); code != 0 || strings.Contains(out, `"0001-`) || !strings.Contains(out, `"created_at"`) {
		t.Errorf("model show: exit %d %s", code, out)
	}
	if code, out, _ := runCLI(t, env, "model", "retire", name); code != 0 || !strings.Contains(out, `"status": "retired"`) {
		t.Errorf("retire: exit %d %s", code, out)
	}
}
