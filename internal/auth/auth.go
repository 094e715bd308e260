package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
	"golang.org/x/time/rate"

	"github.com/ragd-dev/ragd/internal/config"
)

// Role is what a principal may do within its tenant. Roles are ordered:
// RoleReader < RoleEditor < RoleAdmin, and a role includes the ones below it.
type Role int

// The roles. The zero Role is no role and satisfies no requirement.
const (
	// RoleReader may search, ask and read documents.
	RoleReader Role = iota + 1
	// RoleEditor may also add, replace and delete documents.
	RoleEditor
	// RoleAdmin may also change tenant settings and run evaluations.
	RoleAdmin
)

var roleNames = map[Role]string{RoleReader: "reader", RoleEditor: "editor", RoleAdmin: "admin"}

// String returns "reader", "editor" or "admin" (or "none" for the zero Role).
func (r Role) String() string {
	if s, ok := roleNames[r]; ok {
		return s
	}
	return "none"
}

// Allows reports whether r satisfies the requirement min.
func (r Role) Allows(min Role) bool { return r >= RoleReader && r <= RoleAdmin && r >= min }

// ParseRole parses "reader", "editor" or "admin" (exact, lower case).
// Errors: ErrBadClaims for anything else.
func ParseRole(s string) (Role, error) {
	for r, name := range roleNames {
		if s == name {
			return r, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown role %q (want reader, editor or admin)", ErrBadClaims, s)
}

// Principal is the verified caller of a request.
type Principal struct {
	// TenantID is the tenant every query of the request is scoped to.
	TenantID uuid.UUID
	// Role bounds which operations the caller may invoke.
	Role Role
	// Subject is the token's sub claim (may be empty).
	Subject string
	// Groups are the token's groups claim (Options.GroupsClaim): its
	// strings when it is a JSON array of strings, else none.
	Groups []string
}

// Principals are the access-list principals of p (docs/SECURITY.md):
// "user:<sub>" when the subject is set, and "group:<name>" for each group.
// A subject or group that is not a valid principal (empty, longer than
// MaxPrincipalBytes, with control characters) is left out: fail closed,
// such a caller reads fewer documents, never more.
func (p Principal) Principals() []string {
	var out []string
	if ValidPrincipal("user:" + p.Subject) {
		out = append(out, "user:"+p.Subject)
	}
	for _, g := range p.Groups {
		if ValidPrincipal("group:" + g) {
			out = append(out, "group:"+g)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// MaxPrincipalBytes bounds one principal of an access list.
const MaxPrincipalBytes = 256

// MaxAccessList bounds the principals of one document's access list.
const MaxAccessList = 100

// ValidPrincipal reports whether s is an access-list principal: "user:" or
// "group:" followed by 1 or more bytes, at most MaxPrincipalBytes in all,
// valid UTF-8 without control characters.
func ValidPrincipal(s string) bool {
	name, ok := strings.CutPrefix(s, "user:")
	if !ok {
		name, ok = strings.CutPrefix(s, "group:")
	}
	if !ok || name == "" || len(s) > MaxPrincipalBytes || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// ErrInvalidAccess is returned by NormalizeAccess for an access list that
// is not a list of principals.
var ErrInvalidAccess = errors.New("auth: invalid access list")

// NormalizeAccess checks a document's access list and returns it sorted
// without duplicates; the empty list (nil or []) means everyone in the
// tenant. Errors: ErrInvalidAccess naming the first bad entry, or more than
// MaxAccessList principals.
func NormalizeAccess(access []string) ([]string, error) {
	out := make([]string, 0, len(access))
	for _, a := range access {
		if !ValidPrincipal(a) {
			return nil, fmt.Errorf("%w: %q is not a principal (user:<id> or group:<name>, at most %d bytes, no control characters)", ErrInvalidAccess, a, MaxPrincipalBytes)
		}
		out = append(out, a)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > MaxAccessList {
		return nil, fmt.Errorf("%w: %d principals, at most %d", ErrInvalidAccess, len(out), MaxAccessList)
	}
	return out, nil
}

// Errors returned by Verify. ErrInvalidToken and ErrBadClaims wrap the reason
// for logs; show clients only PublicReason(err).
var (
	// ErrMissingToken: no Authorization header, or not a Bearer credential.
	ErrMissingToken = errors.New("auth: missing bearer token")
	// ErrInvalidToken: the token does not parse, its algorithm is not
	// accepted, its signature does not verify, or its registered claims (exp,
	// nbf, iat, iss, aud) fail.
	ErrInvalidToken = errors.New("auth: invalid token")
	// ErrBadClaims: the token verifies but its tenant or role claim is
	// missing or malformed.
	ErrBadClaims = errors.New("auth: bad token claims")
)

// PublicReason is the short phrase a client may see for a Verify error: it
// says which kind of problem, never the detail.
func PublicReason(err error) string {
	switch {
	case errors.Is(err, ErrMissingToken):
		return "missing bearer token"
	case errors.Is(err, jwt.ErrTokenExpired):
		return "token expired"
	case errors.Is(err, ErrBadClaims):
		return "token claims are missing or malformed"
	default:
		return "invalid token"
	}
}

// Defaults of Options.
const (
	DefaultTenantClaim         = "tenant_id"
	DefaultRoleClaim           = "role"
	DefaultGroupsClaim         = "groups"
	DefaultJWKSRefreshInterval = time.Hour
	// DefaultJWKSUnknownKIDEvery is the shortest interval between two JWKS
	// refreshes triggered by tokens naming an unknown kid.
	DefaultJWKSUnknownKIDEvery = time.Minute
)

// Options configure a Verifier. At least one of Secret, PublicKeys and
// JWKSURL must be set; several may be (each accepts its own algorithms).
type Options struct {
	// Secret is the HS256 key (development); at least 32 bytes.
	Secret string
	// PublicKeys holds one or more PEM blocks: PUBLIC KEY (PKIX: RSA, ECDSA
	// P-256/P-384/P-521, Ed25519), RSA PUBLIC KEY (PKCS #1) or CERTIFICATE.
	PublicKeys string
	// JWKSURL is an http(s) JWKS endpoint (an OIDC provider's jwks_uri).
	JWKSURL string
	// Issuer and Audience, when set, must match the iss and aud claims.
	Issuer   string
	Audience string
	// TenantClaim and RoleClaim name the claims holding the tenant id (a
	// UUID) and the role; defaults DefaultTenantClaim and DefaultRoleClaim.
	TenantClaim string
	RoleClaim   string
	// GroupsClaim names the claim holding the caller's groups, a JSON array
	// of strings; default DefaultGroupsClaim. Anything else there (absent,
	// a string, an array holding a non-string) is no groups.
	GroupsClaim string
	// Leeway is the clock skew allowed on exp, nbf and iat.
	Leeway time.Duration
	// JWKSClient fetches the JWKS (default: an http.Client with a 10 s timeout).
	JWKSClient *http.Client
	// JWKSRefreshInterval is how often the JWKS is refetched (default 1 h).
	JWKSRefreshInterval time.Duration
	// JWKSUnknownKIDEvery rate-limits refreshes triggered by an unknown kid
	// (default 1 min); a token arriving while the limiter is closed is
	// refused at once rather than waiting.
	JWKSUnknownKIDEvery time.Duration
}

// OptionsFromConfig maps ragd's configuration to Options.
func OptionsFromConfig(c config.Config) Options {
	return Options{
		Secret: c.JWTSecret, PublicKeys: c.JWTPublicKeys, JWKSURL: c.JWKSURL,
		Issuer: c.JWTIssuer, Audience: c.JWTAudience,
		TenantClaim: c.JWTTenantClaim, RoleClaim: c.JWTRoleClaim, GroupsClaim: c.JWTGroupsClaim, Leeway: c.JWTLeeway,
	}
}

// Verifier checks bearer tokens. It is safe for concurrent use.
type Verifier struct {
	secret  []byte
	keys    []publicKey
	jwks    keyfunc.Keyfunc
	methods []string
	opts    Options
}

// jwksMethods are the algorithms accepted from a JWKS: asymmetric only, so a
// symmetric ("oct") key in a provider's set can never verify anything.
var jwksMethods = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// New builds a Verifier. ctx bounds the background JWKS refresh (cancel it
// at shutdown). The JWKS is fetched once at start; a failure is logged by the
// key library and retried on the next unknown kid, so an identity provider
// outage does not stop the server from starting.
//
// Errors: no key source; a secret shorter than 32 bytes; a PEM block that is
// not a supported public key (private keys are refused); an invalid JWKS URL.
func New(ctx context.Context, o Options) (*Verifier, error) {
	if o.TenantClaim == "" {
		o.TenantClaim = DefaultTenantClaim
	}
	if o.RoleClaim == "" {
		o.RoleClaim = DefaultRoleClaim
	}
	if o.GroupsClaim == "" {
		o.GroupsClaim = DefaultGroupsClaim
	}
	if o.Leeway < 0 {
		return nil, errors.New("auth: leeway must not be negative")
	}
	v := &Verifier{opts: o}
	if o.Secret != "" {
		if len(o.Secret) < 32 {
			return nil, errors.New("auth: the HS256 secret must be at least 32 bytes")
		}
		v.secret = []byte(o.Secret)
		v.methods = append(v.methods, "HS256")
	}
	if strings.TrimSpace(o.PublicKeys) != "" {
		keys, err := parsePublicKeys([]byte(o.PublicKeys))
		if err != nil {
			return nil, err
		}
		v.keys = keys
		for _, k := range keys {
			v.methods = append(v.methods, k.algs...)
		}
	}
	if o.JWKSURL != "" {
		client := o.JWKSClient
		if client == nil {
			client = &http.Client{Timeout: 10 * time.Second}
		}
		every := o.JWKSUnknownKIDEvery
		if every <= 0 {
			every = DefaultJWKSUnknownKIDEvery
		}
		interval := o.JWKSRefreshInterval
		if interval <= 0 {
			interval = DefaultJWKSRefreshInterval
		}
		kf, err := keyfunc.NewDefaultOverrideCtx(ctx, []string{o.JWKSURL}, keyfunc.Override{
			Client:            client,
			HTTPTimeout:       10 * time.Second,
			RefreshInterval:   interval,
			RefreshUnknownKID: rate.NewLimiter(rate.Every(every), 1),
			// jwkset bounds both the wait for the limiter and the refresh
			// fetch with this one deadline. rate.Limiter.Wait fails at once
			// when the next token is further away than the deadline, so a
			// flood of unknown kids is refused without queueing, while a
			// real rotation gets 5 s to fetch the new set (with 1 ms, every
			// fetch slower than 1 ms failed: key rotation never worked).
			RateLimitWaitMax: 5 * time.Second,
		})
		if err != nil {
			return nil, fmt.Errorf("auth: JWKS %s: %w", o.JWKSURL, err)
		}
		v.jwks = kf
		v.methods = append(v.methods, jwksMethods...)
	}
	if len(v.methods) == 0 {
		return nil, errors.New("auth: no key source: set a secret, public keys or a JWKS URL")
	}
	slices.Sort(v.methods)
	v.methods = slices.Compact(v.methods)
	return v, nil
}

// FromConfig is New(ctx, OptionsFromConfig(c)).
func FromConfig(ctx context.Context, c config.Config) (*Verifier, error) {
	return New(ctx, OptionsFromConfig(c))
}

// Methods returns the accepted algorithms, sorted.
func (v *Verifier) Methods() []string { return slices.Clone(v.methods) }

// BearerToken extracts the token of an "Authorization: Bearer <token>"
// header value (scheme case-insensitive, RFC 6750). Errors: ErrMissingToken.
func BearerToken(header string) (string, error) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", ErrMissingToken
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return "", ErrMissingToken
	}
	return token, nil
}

// maxClaimTime is 9999-12-31T23:59:59Z in seconds since the epoch.
const maxClaimTime = 253402300799

// Verify checks token (the bare JWT) and returns its principal.
// Errors: ErrMissingToken for an empty token; ErrInvalidToken wrapping the
// jwt error; ErrBadClaims for a missing or malformed tenant or role claim.
func (v *Verifier) Verify(ctx context.Context, token string) (Principal, error) {
	if token == "" {
		return Principal{}, ErrMissingToken
	}
	opts := []jwt.ParserOption{
		jwt.WithValidMethods(v.methods),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(v.opts.Leeway),
	}
	if v.opts.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(v.opts.Issuer))
	}
	if v.opts.Audience != "" {
		opts = append(opts, jwt.WithAudience(v.opts.Audience))
	}
	claims := jwt.MapClaims{}
	if _, err := jwt.NewParser(opts...).ParseWithClaims(token, claims, v.keyfunc(ctx)); err != nil {
		return Principal{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	// A claim named twice is read by the library as its last value, and by
	// another reader of the same token (a gateway, an audit log) perhaps
	// as its first: two readers would see two tenants. A token that names
	// a header parameter or a claim twice is refused (RFC 7519 §4: a
	// parser must reject duplicates or take the last; ragd rejects).
	for i, part := range strings.SplitN(token, ".", 3)[:2] {
		if name, dup := duplicateMember(part); dup {
			what := [...]string{"header parameter", "claim"}[i]
			return Principal{}, fmt.Errorf("%w: %s %q appears twice", ErrInvalidToken, what, name)
		}
	}
	// The library converts a time claim to int64 seconds; past about 9.2e18
	// the conversion overflows (on amd64 to the most negative value, a date
	// in the distant past), so an nbf or iat of 1e19 read as long gone and
	// the token as valid. A time after the year 9999 is no time a token is
	// issued or becomes valid at.
	for _, name := range []string{"nbf", "iat"} {
		if f, ok := claims[name].(float64); ok && !(f <= maxClaimTime) {
			return Principal{}, fmt.Errorf("%w: claim %q is not a time before the year 10000", ErrInvalidToken, name)
		}
	}
	p := Principal{}
	p.Subject, _ = claims["sub"].(string)
	raw, ok := claims[v.opts.TenantClaim]
	if !ok {
		return Principal{}, fmt.Errorf("%w: no %q claim", ErrBadClaims, v.opts.TenantClaim)
	}
	s, ok := raw.(string)
	if !ok {
		return Principal{}, fmt.Errorf("%w: claim %q is not a string", ErrBadClaims, v.opts.TenantClaim)
	}
	id, err := uuid.Parse(s)
	if err != nil || id == uuid.Nil || len(s) != 36 {
		return Principal{}, fmt.Errorf("%w: claim %q is not a UUID", ErrBadClaims, v.opts.TenantClaim)
	}
	p.TenantID = id
	rawRole, ok := claims[v.opts.RoleClaim].(string)
	if !ok {
		return Principal{}, fmt.Errorf("%w: no string %q claim", ErrBadClaims, v.opts.RoleClaim)
	}
	if p.Role, err = ParseRole(rawRole); err != nil {
		return Principal{}, err
	}
	p.Groups = stringArray(claims[v.opts.GroupsClaim])
	return p, nil
}

// duplicateMember reports the first member name that a JWT segment's
// JSON object (base64url, unpadded) holds twice at its top level. A
// segment that does not decode has none (the library refused it already).
func duplicateMember(segment string) (string, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(segment)
	if err != nil {
		return "", false
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	seen := map[string]bool{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return "", false
		}
		name, _ := t.(string)
		if seen[name] {
			return name, true
		}
		seen[name] = true
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return "", false
		}
	}
	return "", false
}

// stringArray returns raw's strings when it is a JSON array of strings only,
// else nil (fail closed: a malformed claim grants no group).
func stringArray(raw any) []string {
	arr, ok := raw.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// keyfunc chooses the verification key by the configured sources; the token's
// algorithm was already checked against v.methods by the parser.
func (v *Verifier) keyfunc(ctx context.Context) jwt.Keyfunc {
	return func(t *jwt.Token) (any, error) {
		alg := t.Method.Alg()
		if alg == "HS256" {
			if v.secret == nil {
				return nil, errors.New("no HS256 secret configured")
			}
			return v.secret, nil
		}
		var set jwt.VerificationKeySet
		for _, k := range v.keys {
			if slices.Contains(k.algs, alg) {
				set.Keys = append(set.Keys, k.key)
			}
		}
		if v.jwks != nil && slices.Contains(jwksMethods, alg) {
			if _, hasKID := t.Header["kid"]; hasKID || len(set.Keys) == 0 {
				return v.jwks.KeyfuncCtx(ctx)(t)
			}
		}
		if len(set.Keys) == 0 {
			return nil, fmt.Errorf("no key for algorithm %s", alg)
		}
		return set, nil
	}
}

// IssueOption adds a registered claim to a token made by Issue.
type IssueOption func(jwt.MapClaims)

// WithIssuer sets iss.
func WithIssuer(iss string) IssueOption {
	return func(c jwt.MapClaims) {
		if iss != "" {
			c["iss"] = iss
		}
	}
}

// WithAudience sets aud.
func WithAudience(aud string) IssueOption {
	return func(c jwt.MapClaims) {
		if aud != "" {
			c["aud"] = aud
		}
	}
}

// WithSubject sets sub (default "ragd-dev").
func WithSubject(sub string) IssueOption { return func(c jwt.MapClaims) { c["sub"] = sub } }

// WithGroups sets the groups claim (named groupsClaim, default
// DefaultGroupsClaim) to groups.
func WithGroups(groupsClaim string, groups ...string) IssueOption {
	return func(c jwt.MapClaims) {
		if groupsClaim == "" {
			groupsClaim = DefaultGroupsClaim
		}
		c[groupsClaim] = groups
	}
}

// WithClaimNames stores the tenant id and role under other claim names (to
// match RAGD_JWT_TENANT_CLAIM / RAGD_JWT_ROLE_CLAIM).
func WithClaimNames(tenantClaim, roleClaim string) IssueOption {
	return func(c jwt.MapClaims) {
		if tenantClaim != "" && tenantClaim != DefaultTenantClaim {
			c[tenantClaim] = c[DefaultTenantClaim]
			delete(c, DefaultTenantClaim)
		}
		if roleClaim != "" && roleClaim != DefaultRoleClaim {
			c[roleClaim] = c[DefaultRoleClaim]
			delete(c, DefaultRoleClaim)
		}
	}
}

// Issue makes an HS256 development token for tenantID with role, valid for
// ttl from now (iat, nbf = now; exp = now + ttl). Errors: a secret shorter
// than 32 bytes, the nil tenant, an invalid role, ttl ≤ 0.
func Issue(secret string, tenantID uuid.UUID, role Role, ttl time.Duration, opts ...IssueOption) (string, error) {
	switch {
	case len(secret) < 32:
		return "", errors.New("auth: the HS256 secret must be at least 32 bytes")
	case tenantID == uuid.Nil:
		return "", errors.New("auth: no tenant id")
	case role.String() == "none":
		return "", errors.New("auth: invalid role")
	case ttl <= 0:
		return "", errors.New("auth: ttl must be positive")
	}
	now := time.Now()
	claims := jwt.MapClaims{
		"sub":              "ragd-dev",
		DefaultTenantClaim: tenantID.String(),
		DefaultRoleClaim:   role.String(),
		"iat":              now.Unix(),
		"nbf":              now.Unix(),
		"exp":              now.Add(ttl).Unix(),
	}
	for _, o := range opts {
		o(claims)
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(secret))
}
