package model_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// keyServer is an embeddings server that records the Authorization header
// of each request.
func keyServer(t *testing.T, dims int) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		var req struct {
			Input []string `json:"input"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		data := make([]map[string]any, len(req.Input))
		for i := range req.Input {
			v := make([]float64, dims)
			v[i%dims] = 1
			data[i] = map[string]any{"index": i, "embedding": v}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

func name(prefix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// TestSetKeysGoOnlyToTheirAPI: RAGD_EMBED_API_KEY is sent only to
// RAGD_EMBED_BASE_URL (the default model and registered models without an
// endpoint of their own), a RAGD_EMBED_API_KEYS key only to its model, and
// a registered model at another endpoint without a key of its own gets no
// key at all.
func TestSetKeysGoOnlyToTheirAPI(t *testing.T) {
	ctx := context.Background()
	owner := testdb.Owner(t)
	def, defSeen := keyServer(t, 8)
	keyed, keyedSeen := keyServer(t, 8)
	bare, bareSeen := keyServer(t, 8)
	reg := func(n, endpoint string) model.Model {
		m, err := model.Register(ctx, owner, model.Registration{Name: n, Provider: model.ProviderOpenAI, Dims: 8, Endpoint: endpoint})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	mDef, mKeyed, mBare := reg(name("fake-def"), ""), reg(name("fake-keyed"), keyed.URL+"/v1"), reg(name("fake-bare"), bare.URL+"/v1")
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.EmbedBaseURL, cfg.EmbedModel, cfg.EmbedDims, cfg.EmbedAPIKey = def.URL+"/v1", mDef.Name, 8, "default-key"
	cfg.EmbedAPIKeys = map[string]string{mKeyed.Name: "keyed-key"}
	set, err := model.NewSet(ctx, testdb.App(t), cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if set.Default().ID != mDef.ID {
		t.Fatalf("default %+v, want %s", set.Default(), mDef.Name)
	}
	for _, id := range []int16{0, mKeyed.ID, mBare.ID} {
		_, e, err := set.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Embed(ctx, []string{"a text"}); err != nil {
			t.Fatalf("model %d: %v", id, err)
		}
	}
	for what, c := range map[string]struct {
		got  []string
		want string
	}{"default": {defSeen(), "Bearer default-key"}, "keyed": {keyedSeen(), "Bearer keyed-key"}, "bare": {bareSeen(), ""}} {
		if len(c.got) != 1 || c.got[0] != c.want {
			t.Errorf("%s model's server saw Authorization %q, want [%q]", what, c.got, c.want)
		}
	}
	if _, _, err := set.Get(ctx, 32000); !errors.Is(err, model.ErrNotRegistered) {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := model.Register(ctx, owner, model.Registration{Name: name("fake-cred"), Provider: model.ProviderOpenAI, Dims: 8,
		Endpoint: "http://user:secret@example.test/v1"}); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("an endpoint with credentials: %v", err)
	}
}
