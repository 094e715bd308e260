package api_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/humatest"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

func TestAuthenticationFailures(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// No credentials: 401 with a bare challenge (RFC 6750 §3.1).
	w := b.do(req{method: "GET", path: "/v1/documents"})
	p := problem(t, w, http.StatusUnauthorized)
	if got := w.Header().Get("WWW-Authenticate"); got != `Bearer realm="ragd"` {
		t.Errorf("WWW-Authenticate %q", got)
	}
	if p.Detail != "missing bearer token" {
		t.Errorf("detail %q", p.Detail)
	}
	for name, h := range map[string]string{
		"basic":   "Basic dXNlcjpwYXNz",
		"garbage": "Bearer not-a-jwt",
		"wrong secret": "Bearer " + func() string {
			tok, _ := auth.Issue(strings.Repeat("x", 40), b.a.ID, auth.RoleAdmin, time.Hour)
			return tok
		}(),
	} {
		w := b.do(req{method: "GET", path: "/v1/documents", header: map[string]string{"Authorization": h}})
		problem(t, w, http.StatusUnauthorized)
		want := `Bearer realm="ragd", error="invalid_token"`
		if name == "basic" {
			want = `Bearer realm="ragd"`
		}
		if got := w.Header().Get("WWW-Authenticate"); got != want {
			t.Errorf("%s: WWW-Authenticate %q, want %q", name, got, want)
		}
	}
	// Unknown routes under /v1 are authenticated first: no route discovery.
	problem(t, b.do(req{method: "GET", path: "/v1/nope"}), http.StatusUnauthorized)
	problem(t, b.do(req{method: "GET", path: "/v1"}), http.StatusUnauthorized)
	// Paths that only become /v1 after cleaning or decoding are not a way around authentication.
	for _, path := range []string{"/x/../v1/documents", "/%76%31/documents", "//v1/documents", "/v1/./documents"} {
		if w := b.do(req{method: "GET", path: path}); w.Code == http.StatusOK {
			t.Errorf("GET %s without a token: %d %s", path, w.Code, w.Body.String())
		}
	}
	// With a token, an unknown route is a 404 problem.
	problem(t, b.do(req{method: "GET", path: "/v1/nope", token: token(t, b.a.ID, auth.RoleAdmin)}), http.StatusNotFound)
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w := b.do(req{method: "GET", path: "/v1/documents", header: map[string]string{"X-Request-ID": "client-abc.123"}})
	if p := problem(t, w, http.StatusUnauthorized); p.RequestID != "client-abc.123" {
		t.Errorf("request id %q not echoed", p.RequestID)
	}
	for _, bad := range []string{"has space", strings.Repeat("a", 200), "<script>", "-leading"} {
		w := b.do(req{method: "GET", path: "/healthz", header: map[string]string{"X-Request-ID": bad}})
		id := w.Header().Get("X-Request-ID")
		if id == bad || uuid.Validate(id) != nil {
			t.Errorf("malformed request id %q answered with %q, want a fresh UUID", bad, id)
		}
	}
}

// rs256 is a verifier setup for the JWT attack matrix.
type rs256 struct {
	key    *rsa.PrivateKey
	pubPEM string
}

func newRS256(t *testing.T) rs256 {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return rs256{key: key, pubPEM: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))}
}

func signed(t *testing.T, m jwt.SigningMethod, key any, c jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, c).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestJWTAttackMatrix: forged and out-of-policy tokens against an RS256
// verifier with issuer and audience, each refused with the right status and
// a body that says no more than a short phrase.
func TestJWTAttackMatrix(t *testing.T) {
	t.Parallel()
	rs := newRS256(t)
	var issuer, audience = "https://idp.example", "ragd-api"
	b := setup(t, func(d *api.Deps) {
		v, err := auth.New(t.Context(), auth.Options{PublicKeys: rs.pubPEM, Issuer: issuer, Audience: audience, Leeway: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		d.Verifier = v
	})
	disabled := b.b
	disable(t, disabled.Slug)
	claims := func(tenant uuid.UUID, role string, mod ...func(jwt.MapClaims)) jwt.MapClaims {
		now := time.Now()
		c := jwt.MapClaims{"sub": "u1", "tenant_id": tenant.String(), "role": role, "iss": issuer, "aud": audience,
			"iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
		for _, m := range mod {
			m(c)
		}
		return c
	}
	rsTok := func(c jwt.MapClaims) string { return signed(t, jwt.SigningMethodRS256, rs.key, c) }
	none, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims(b.a.ID, "admin")).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	tampered := func() string {
		parts := strings.Split(rsTok(claims(b.a.ID, "reader")), ".")
		raw, _ := json.Marshal(claims(b.a.ID, "admin"))
		parts[1] = base64.RawURLEncoding.EncodeToString(raw)
		return strings.Join(parts, ".")
	}()
	cases := []struct {
		name   string
		token  string
		method string
		path   string
		status int
		detail string
	}{
		{"valid reader", rsTok(claims(b.a.ID, "reader")), "GET", "/v1/documents", 200, ""},
		{"alg none", none, "GET", "/v1/documents", 401, "invalid token"},
		{"HS256 keyed with the RS256 public key", signed(t, jwt.SigningMethodHS256, []byte(rs.pubPEM), claims(b.a.ID, "admin")), "GET", "/v1/documents", 401, "invalid token"},
		{"expired", rsTok(claims(b.a.ID, "reader", func(c jwt.MapClaims) { c["exp"] = time.Now().Add(-time.Minute).Unix() })), "GET", "/v1/documents", 401, "token expired"},
		{"not yet valid", rsTok(claims(b.a.ID, "reader", func(c jwt.MapClaims) { c["nbf"] = time.Now().Add(time.Hour).Unix() })), "GET", "/v1/documents", 401, "invalid token"},
		{"wrong issuer", rsTok(claims(b.a.ID, "reader", func(c jwt.MapClaims) { c["iss"] = "https://evil.example" })), "GET", "/v1/documents", 401, "invalid token"},
		{"wrong audience", rsTok(claims(b.a.ID, "reader", func(c jwt.MapClaims) { c["aud"] = "another-api" })), "GET", "/v1/documents", 401, "invalid token"},
		{"missing tenant claim", rsTok(claims(b.a.ID, "reader", func(c jwt.MapClaims) { delete(c, "tenant_id") })), "GET", "/v1/documents", 401, "token claims are missing or malformed"},
		{"malformed tenant claim", rsTok(claims(b.a.ID, "reader", func(c jwt.MapClaims) { c["tenant_id"] = b.a.Slug })), "GET", "/v1/documents", 401, "token claims are missing or malformed"},
		{"unknown tenant", rsTok(claims(uuid.New(), "admin")), "GET", "/v1/documents", 401, "unknown tenant"},
		{"tampered signature", tampered, "GET", "/v1/documents", 401, "invalid token"},
		{"wrong role", rsTok(claims(b.a.ID, "reader")), "PUT", "/v1/documents", 403, "this operation needs the editor role"},
		{"disabled tenant", rsTok(claims(disabled.ID, "admin")), "GET", "/v1/documents", 403, "tenant is disabled"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var body any
			if tc.method == "PUT" {
				body = map[string]any{"source_uri": "x.md", "content": "hello"}
			}
			w := b.do(req{method: tc.method, path: tc.path, token: tc.token, body: body})
			if tc.status == 200 {
				decode[api.DocumentList](t, w, 200)
				return
			}
			p := problem(t, w, tc.status)
			if p.Detail != tc.detail {
				t.Errorf("detail %q, want %q", p.Detail, tc.detail)
			}
			if tc.status == 401 && !strings.Contains(w.Header().Get("WWW-Authenticate"), `error="invalid_token"`) {
				t.Errorf("WWW-Authenticate %q", w.Header().Get("WWW-Authenticate"))
			}
			for _, leak := range []string{"signature", "crypto", "rsa", "key", "claim \"", "issuer", "audience"} {
				if strings.Contains(strings.ToLower(w.Body.String()), leak) {
					t.Errorf("body leaks %q: %s", leak, w.Body.String())
				}
			}
		})
	}
}

func TestRoleEnforcement(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// An operation registered without any declaration requires admin.
	huma.Register(b.srv.API(), huma.Operation{OperationID: "undeclared", Method: "GET", Path: "/v1/undeclared"},
		func(context.Context, *struct{}) (*struct{ Body string }, error) {
			return &struct{ Body string }{"ok"}, nil
		})
	reader, editor, admin := token(t, b.a.ID, auth.RoleReader), token(t, b.a.ID, auth.RoleEditor), token(t, b.a.ID, auth.RoleAdmin)
	doc := map[string]any{"source_uri": "roles.md", "content": docBilling}
	type check struct {
		method, path string
		body         any
		want         map[string]int // role → status
	}
	checks := []check{
		{"GET", "/v1/documents", nil, map[string]int{"reader": 200, "editor": 200, "admin": 200}},
		{"PUT", "/v1/documents", doc, map[string]int{"reader": 403, "editor": 200, "admin": 200}},
		{"DELETE", "/v1/documents?source_uri=nothing.md", nil, map[string]int{"reader": 403, "editor": 404, "admin": 404}},
		{"DELETE", "/v1/documents/" + uuid.NewString(), nil, map[string]int{"reader": 403, "editor": 404, "admin": 404}},
		{"POST", "/v1/search", map[string]any{"query": "refunds"}, map[string]int{"reader": 200, "editor": 200, "admin": 200}},
		{"GET", "/v1/tenant", nil, map[string]int{"reader": 200, "editor": 200, "admin": 200}},
		{"PATCH", "/v1/tenant/settings", map[string]any{"candidates": 25}, map[string]int{"reader": 403, "editor": 403, "admin": 200}},
		{"PUT", "/v1/eval/sets/smoke", map[string]any{"questions": []map[string]any{{"question": "How are refunds processed?", "relevant": []string{"roles.md"}}}},
			map[string]int{"reader": 403, "editor": 403, "admin": 200}},
		{"POST", "/v1/eval/runs", map[string]any{"set": "smoke"}, map[string]int{"reader": 403, "editor": 403, "admin": 200}},
		{"GET", "/v1/eval/runs/" + uuid.NewString(), nil, map[string]int{"reader": 403, "editor": 403, "admin": 404}},
		{"GET", "/v1/undeclared", nil, map[string]int{"reader": 403, "editor": 403, "admin": 200}},
	}
	for _, c := range checks {
		for role, tok := range map[string]string{"reader": reader, "editor": editor, "admin": admin} {
			w := b.do(req{method: c.method, path: c.path, token: tok, body: c.body})
			if w.Code != c.want[role] {
				t.Errorf("%s %s as %s: %d, want %d (%s)", c.method, c.path, role, w.Code, c.want[role], w.Body.String())
			}
			if w.Code == 403 {
				if got := w.Header().Get("WWW-Authenticate"); !strings.Contains(got, "insufficient_scope") {
					t.Errorf("%s %s as %s: WWW-Authenticate %q", c.method, c.path, role, got)
				}
			}
		}
	}
}

// TestFailClosedWithoutRouterAuth drives the huma API directly (humatest),
// bypassing the router-level authentication: every /v1 operation still
// refuses with 401, because the operation-level middleware finds no principal.
func TestFailClosedWithoutRouterAuth(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tapi := humatest.Wrap(t, b.srv.API())
	for path, item := range b.srv.API().OpenAPI().Paths {
		for method, op := range map[string]*huma.Operation{"GET": item.Get, "PUT": item.Put, "POST": item.Post, "DELETE": item.Delete, "PATCH": item.Patch} {
			if op == nil {
				continue
			}
			path := strings.ReplaceAll(strings.ReplaceAll(path, "{id}", uuid.NewString()), "{name}", "set")
			w := tapi.Do(method, path, "Authorization: Bearer "+token(t, b.a.ID, auth.RoleAdmin))
			switch {
			case strings.HasPrefix(path, "/v1/"):
				if w.Code != http.StatusUnauthorized {
					t.Errorf("%s %s without router auth: %d", method, path, w.Code)
				}
			case w.Code != http.StatusOK:
				t.Errorf("public %s %s: %d", method, path, w.Code)
			}
		}
	}
}

// TestDuplicateAuthorizationHeaders: two Authorization headers are a 400,
// not the first token's tenant: a proxy that checks or replaces the last
// one would disagree with ragd about the caller (found by a breaker
// helper).
func TestDuplicateAuthorizationHeaders(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := httptest.NewRequestWithContext(t.Context(), "GET", "/v1/tenant", nil)
	r.Header.Add("Authorization", "Bearer "+token(t, b.a.ID, auth.RoleReader))
	r.Header.Add("Authorization", "Bearer "+token(t, b.b.ID, auth.RoleReader))
	w := httptest.NewRecorder()
	b.srv.ServeHTTP(w, r)
	problem(t, w, http.StatusBadRequest)
}
