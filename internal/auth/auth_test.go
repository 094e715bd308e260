package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/auth"
)

const secret = "0123456789abcdef0123456789abcdef-test-secret"

var (
	keysOnce sync.Once
	rsaKey   *rsa.PrivateKey
	rsaKey2  *rsa.PrivateKey
	ecKey    *ecdsa.PrivateKey
	edKey    ed25519.PrivateKey
)

func keys(t *testing.T) {
	t.Helper()
	keysOnce.Do(func() {
		var err error
		if rsaKey, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if rsaKey2, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if ecKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
			panic(err)
		}
		if _, edKey, err = ed25519.GenerateKey(rand.Reader); err != nil {
			panic(err)
		}
	})
}

func pemOf(t *testing.T, pub any) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

func claims(tenant uuid.UUID, role string) jwt.MapClaims {
	now := time.Now()
	return jwt.MapClaims{"sub": "user-1", "tenant_id": tenant.String(), "role": role,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
}

func sign(t *testing.T, m jwt.SigningMethod, key any, c jwt.MapClaims, kid string) string {
	t.Helper()
	tok := jwt.NewWithClaims(m, c)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newVerifier(t *testing.T, o auth.Options) *auth.Verifier {
	t.Helper()
	v, err := auth.New(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestIssueRoundTrip(t *testing.T) {
	t.Parallel()
	tenant := uuid.New()
	v := newVerifier(t, auth.Options{Secret: secret, Issuer: "ragd", Audience: "api"})
	tok, err := auth.Issue(secret, tenant, auth.RoleEditor, time.Minute, auth.WithIssuer("ragd"), auth.WithAudience("api"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Verify(t.Context(), tok)
	if err != nil {
		t.Fatal(err)
	}
	if p.TenantID != tenant || p.Role != auth.RoleEditor || p.Subject != "ragd-dev" {
		t.Fatalf("principal = %+v", p)
	}
	if _, err := auth.Issue("short", tenant, auth.RoleAdmin, time.Minute); err == nil {
		t.Fatal("Issue accepted a short secret")
	}
	// Renamed claims.
	v2 := newVerifier(t, auth.Options{Secret: secret, TenantClaim: "org", RoleClaim: "perm"})
	tok, _ = auth.Issue(secret, tenant, auth.RoleAdmin, time.Minute, auth.WithClaimNames("org", "perm"))
	if p, err := v2.Verify(t.Context(), tok); err != nil || p.Role != auth.RoleAdmin {
		t.Fatalf("renamed claims: %+v %v", p, err)
	}
}

func TestRoles(t *testing.T) {
	t.Parallel()
	if !auth.RoleAdmin.Allows(auth.RoleEditor) || auth.RoleReader.Allows(auth.RoleEditor) || auth.Role(0).Allows(auth.Role(0)) {
		t.Fatal("role order wrong")
	}
	for _, s := range []string{"reader", "editor", "admin"} {
		if r, err := auth.ParseRole(s); err != nil || r.String() != s {
			t.Fatalf("ParseRole(%q) = %v, %v", s, r, err)
		}
	}
	for _, s := range []string{"", "Admin", "root", "admin "} {
		if _, err := auth.ParseRole(s); !errors.Is(err, auth.ErrBadClaims) {
			t.Fatalf("ParseRole(%q) err = %v", s, err)
		}
	}
}

func TestBearerToken(t *testing.T) {
	t.Parallel()
	for h, want := range map[string]string{"Bearer abc": "abc", "bearer  abc ": "abc", "BEARER x.y.z": "x.y.z"} {
		if got, err := auth.BearerToken(h); err != nil || got != want {
			t.Errorf("BearerToken(%q) = %q, %v", h, got, err)
		}
	}
	for _, h := range []string{"", "Bearer", "Bearer   ", "Basic dXNlcjpwdw==", "abc"} {
		if _, err := auth.BearerToken(h); !errors.Is(err, auth.ErrMissingToken) {
			t.Errorf("BearerToken(%q) err = %v", h, err)
		}
	}
}

// TestAttackMatrix: every forged or out-of-policy token is refused with the
// right error class (the HTTP statuses are checked in internal/api).
func TestAttackMatrix(t *testing.T) {
	t.Parallel()
	keys(t)
	tenant := uuid.New()
	rsaPEM := pemOf(t, &rsaKey.PublicKey)
	rsV := newVerifier(t, auth.Options{PublicKeys: rsaPEM, Issuer: "https://idp.example", Audience: "ragd"})
	hsV := newVerifier(t, auth.Options{Secret: secret})
	good := func() jwt.MapClaims {
		c := claims(tenant, "reader")
		c["iss"], c["aud"] = "https://idp.example", "ragd"
		return c
	}
	if _, err := rsV.Verify(t.Context(), sign(t, jwt.SigningMethodRS256, rsaKey, good(), "")); err != nil {
		t.Fatalf("valid RS256 token refused: %v", err)
	}
	noneTok := func(c jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodNone, c).SignedString(jwt.UnsafeAllowNoneSignatureType)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tampered := func() string {
		s := sign(t, jwt.SigningMethodHS256, []byte(secret), claims(tenant, "reader"), "")
		parts := strings.Split(s, ".")
		c := claims(tenant, "admin") // privilege escalation with the old signature
		b, _ := json.Marshal(c)
		parts[1] = base64.RawURLEncoding.EncodeToString(b)
		return strings.Join(parts, ".")
	}
	with := func(mod func(jwt.MapClaims)) jwt.MapClaims { c := good(); mod(c); return c }
	cases := []struct {
		name  string
		v     *auth.Verifier
		token string
		want  error
	}{
		{"empty", hsV, "", auth.ErrMissingToken},
		{"garbage", hsV, "not.a.jwt", auth.ErrInvalidToken},
		{"alg none (HS verifier)", hsV, noneTok(claims(tenant, "admin")), auth.ErrInvalidToken},
		{"alg none (RS verifier)", rsV, noneTok(good()), auth.ErrInvalidToken},
		{"HS256 keyed with the RSA public key", rsV, sign(t, jwt.SigningMethodHS256, []byte(rsaPEM), good(), ""), auth.ErrInvalidToken},
		{"RS256 with another key", rsV, sign(t, jwt.SigningMethodRS256, rsaKey2, good(), ""), auth.ErrInvalidToken},
		{"ES256 on an RSA verifier", rsV, sign(t, jwt.SigningMethodES256, ecKey, good(), ""), auth.ErrInvalidToken},
		{"expired", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { c["exp"] = time.Now().Add(-time.Hour).Unix() }), ""), jwt.ErrTokenExpired},
		{"no exp", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { delete(c, "exp") }), ""), auth.ErrInvalidToken},
		{"nbf in the future", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { c["nbf"] = time.Now().Add(time.Hour).Unix() }), ""), jwt.ErrTokenNotValidYet},
		{"iat in the future", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { c["iat"] = time.Now().Add(time.Hour).Unix() }), ""), jwt.ErrTokenUsedBeforeIssued},
		{"wrong issuer", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { c["iss"] = "https://evil.example" }), ""), jwt.ErrTokenInvalidIssuer},
		{"no issuer", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { delete(c, "iss") }), ""), auth.ErrInvalidToken},
		{"wrong audience", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { c["aud"] = "other" }), ""), jwt.ErrTokenInvalidAudience},
		{"tampered payload", hsV, tampered(), jwt.ErrTokenSignatureInvalid},
		{"missing tenant", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { delete(c, "tenant_id") }), ""), auth.ErrBadClaims},
		{"malformed tenant", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { c["tenant_id"] = "acme" }), ""), auth.ErrBadClaims},
		{"numeric tenant", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { c["tenant_id"] = 42 }), ""), auth.ErrBadClaims},
		{"nil tenant", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { c["tenant_id"] = uuid.Nil.String() }), ""), auth.ErrBadClaims},
		{"missing role", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { delete(c, "role") }), ""), auth.ErrBadClaims},
		{"unknown role", rsV, sign(t, jwt.SigningMethodRS256, rsaKey, with(func(c jwt.MapClaims) { c["role"] = "superuser" }), ""), auth.ErrBadClaims},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.v.Verify(t.Context(), tc.token)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if auth.PublicReason(err) == "" || strings.Contains(auth.PublicReason(err), "signature") {
				t.Fatalf("public reason %q", auth.PublicReason(err))
			}
		})
	}
}

func TestLeeway(t *testing.T) {
	t.Parallel()
	v := newVerifier(t, auth.Options{Secret: secret, Leeway: time.Minute})
	c := claims(uuid.New(), "reader")
	c["exp"] = time.Now().Add(-20 * time.Second).Unix()
	if _, err := v.Verify(t.Context(), sign(t, jwt.SigningMethodHS256, []byte(secret), c, "")); err != nil {
		t.Fatalf("token expired within leeway refused: %v", err)
	}
	c["exp"] = time.Now().Add(-2 * time.Minute).Unix()
	if _, err := v.Verify(t.Context(), sign(t, jwt.SigningMethodHS256, []byte(secret), c, "")); !errors.Is(err, jwt.ErrTokenExpired) {
		t.Fatalf("err = %v", err)
	}
}

func TestPEMKeyTypes(t *testing.T) {
	t.Parallel()
	keys(t)
	tenant := uuid.New()
	pems := pemOf(t, &rsaKey.PublicKey) + pemOf(t, &ecKey.PublicKey) + pemOf(t, edKey.Public())
	v := newVerifier(t, auth.Options{PublicKeys: pems})
	if got := strings.Join(v.Methods(), ","); got != "ES256,EdDSA,RS256,RS384,RS512" {
		t.Fatalf("methods = %s", got)
	}
	for name, tok := range map[string]string{
		"RS256": sign(t, jwt.SigningMethodRS256, rsaKey, claims(tenant, "admin"), ""),
		"RS512": sign(t, jwt.SigningMethodRS512, rsaKey, claims(tenant, "admin"), ""),
		"ES256": sign(t, jwt.SigningMethodES256, ecKey, claims(tenant, "admin"), ""),
		"EdDSA": sign(t, jwt.SigningMethodEdDSA, edKey, claims(tenant, "admin"), ""),
	} {
		if _, err := v.Verify(t.Context(), tok); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := v.Verify(t.Context(), sign(t, jwt.SigningMethodPS256, rsaKey, claims(tenant, "admin"), "")); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("PS256 with a pinned RSA key: %v", err)
	}
}

func TestNewRefusesBadKeys(t *testing.T) {
	t.Parallel()
	keys(t)
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(ecKey)
	for name, o := range map[string]auth.Options{
		"nothing":      {},
		"short secret": {Secret: "too-short"},
		"private key":  {PublicKeys: string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))},
		"1024-bit RSA": {PublicKeys: pemOf(t, &small.PublicKey)},
		"not PEM":      {PublicKeys: "ssh-rsa AAAA"},
		"bad JWKS URL": {JWKSURL: "::"},
	} {
		if _, err := auth.New(t.Context(), o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// jwksServer serves a JWK Set that the test can rotate, counting fetches.
type jwksServer struct {
	mu      sync.Mutex
	set     json.RawMessage
	fetches atomic.Int32
}

func (s *jwksServer) rotate(t *testing.T, keys map[string]any) {
	t.Helper()
	st := jwkset.NewMemoryStorage()
	for kid, k := range keys {
		var alg jwkset.ALG
		switch k.(type) {
		case *rsa.PublicKey:
			alg = jwkset.AlgRS256
		case *ecdsa.PublicKey:
			alg = jwkset.AlgES256
		case []byte:
			alg = jwkset.AlgHS256
		}
		j, err := jwkset.NewJWKFromKey(k, jwkset.JWKOptions{Metadata: jwkset.JWKMetadataOptions{KID: kid, ALG: alg},
			Marshal: jwkset.JWKMarshalOptions{Private: true}})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.KeyWrite(t.Context(), j); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := st.JSONWithOptions(t.Context(), jwkset.JWKMarshalOptions{Private: true}, jwkset.JWKValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.set = raw
	s.mu.Unlock()
}

func (s *jwksServer) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	s.fetches.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.set)
}

func TestJWKSRotation(t *testing.T) {
	t.Parallel()
	keys(t)
	tenant := uuid.New()
	js := &jwksServer{}
	js.rotate(t, map[string]any{"k1": &rsaKey.PublicKey, "sym": []byte(secret)})
	srv := httptest.NewServer(js)
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	v, err := auth.New(ctx, auth.Options{JWKSURL: srv.URL, JWKSUnknownKIDEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(ctx, sign(t, jwt.SigningMethodRS256, rsaKey, claims(tenant, "reader"), "k1")); err != nil {
		t.Fatalf("k1: %v", err)
	}
	// A symmetric key published in the set never verifies anything: HS* is
	// not accepted from a JWKS.
	if _, err := v.Verify(ctx, sign(t, jwt.SigningMethodHS256, []byte(secret), claims(tenant, "admin"), "sym")); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("HS256 via JWKS oct key: %v", err)
	}
	// Rotation: the provider now signs with k2; the unknown kid triggers one refresh.
	js.rotate(t, map[string]any{"k2": &ecKey.PublicKey})
	before := js.fetches.Load()
	if _, err := v.Verify(ctx, sign(t, jwt.SigningMethodES256, ecKey, claims(tenant, "reader"), "k2")); err != nil {
		t.Fatalf("k2 after rotation: %v", err)
	}
	if got := js.fetches.Load() - before; got != 1 {
		t.Fatalf("%d fetches for the unknown kid, want 1", got)
	}
	// A flood of forged kids does not reach the provider (rate limited) and
	// does not wait for the limiter.
	start := time.Now()
	for i := range 20 {
		if _, err := v.Verify(ctx, sign(t, jwt.SigningMethodES256, ecKey, claims(tenant, "reader"), "forged-"+string(rune('a'+i)))); !errors.Is(err, auth.ErrInvalidToken) {
			t.Fatalf("forged kid: %v", err)
		}
	}
	if got := js.fetches.Load() - before; got != 1 {
		t.Fatalf("%d fetches after forged kids, want still 1", got)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("forged kids took %v", d)
	}
	// The retired key no longer verifies.
	if _, err := v.Verify(ctx, sign(t, jwt.SigningMethodRS256, rsaKey, claims(tenant, "reader"), "k1")); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("retired k1: %v", err)
	}
}

// TestGroupsClaim: the groups claim (renamable) gives group principals only
// as a JSON array of strings; anything else is no groups, and entries or a
// subject that are not valid principals are left out (fail closed).
func TestGroupsClaim(t *testing.T) {
	t.Parallel()
	tenant := uuid.New()
	claim := func(v any) auth.IssueOption { return func(c jwt.MapClaims) { c["roles"] = v } }
	v := newVerifier(t, auth.Options{Secret: secret, GroupsClaim: "roles"})
	for _, tc := range []struct {
		name string
		sub  string
		opt  auth.IssueOption
		want string
	}{
		{"array", "alice", claim([]string{"hr", "eng", "hr"}), "group:eng,group:hr,user:alice"},
		{"absent", "alice", nil, "user:alice"},
		{"a string", "alice", claim("hr"), "user:alice"},
		{"an array with a number", "alice", claim([]any{"hr", 3}), "user:alice"},
		{"an object", "alice", claim(map[string]any{"hr": true}), "user:alice"},
		{"empty and control entries", "alice", claim([]string{"", "a\nb", "ok"}), "group:ok,user:alice"},
		{"no subject", "", claim([]string{"hr"}), "group:hr"},
		{"default name ignored", "bob", auth.WithGroups("", "hr"), "user:bob"},
	} {
		opts := []auth.IssueOption{auth.WithSubject(tc.sub)}
		if tc.opt != nil {
			opts = append(opts, tc.opt)
		}
		tok, err := auth.Issue(secret, tenant, auth.RoleReader, time.Minute, opts...)
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.Verify(t.Context(), tok)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := strings.Join(p.Principals(), ","); got != tc.want {
			t.Errorf("%s: principals %q, want %q", tc.name, got, tc.want)
		}
	}
	// The default claim name is groups.
	tok, _ := auth.Issue(secret, tenant, auth.RoleReader, time.Minute, auth.WithSubject("c"), auth.WithGroups("", "ops"))
	if p, err := newVerifier(t, auth.Options{Secret: secret}).Verify(t.Context(), tok); err != nil || strings.Join(p.Principals(), ",") != "group:ops,user:c" {
		t.Errorf("default groups claim: %+v, %v", p, err)
	}
}

func TestNormalizeAccess(t *testing.T) {
	t.Parallel()
	got, err := auth.NormalizeAccess([]string{"user:b", "group:a", "user:b"})
	if err != nil || strings.Join(got, ",") != "group:a,user:b" {
		t.Errorf("NormalizeAccess = %v, %v", got, err)
	}
	if got, err := auth.NormalizeAccess(nil); err != nil || len(got) != 0 {
		t.Errorf("NormalizeAccess(nil) = %v, %v; want the empty list", got, err)
	}
	for _, bad := range [][]string{{"alice"}, {"*"}, {"user:"}, {"group:" + strings.Repeat("x", 300)}, {"group:a\tb"}} {
		if _, err := auth.NormalizeAccess(bad); !errors.Is(err, auth.ErrInvalidAccess) {
			t.Errorf("NormalizeAccess(%q) = %v, want ErrInvalidAccess", bad, err)
		}
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = "user:" + strings.Repeat("a", i+1)
	}
	if _, err := auth.NormalizeAccess(many); !errors.Is(err, auth.ErrInvalidAccess) {
		t.Errorf("101 principals: %v, want ErrInvalidAccess", err)
	}
}
