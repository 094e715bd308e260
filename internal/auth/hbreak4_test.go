package auth_test

import (
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestFarFutureTimeClaimsAreNotValidYet: a token whose nbf (or iat) lies
// far in the future is refused ("nbf in the future" is in the attack
// matrix), but one whose nbf is 1e19 seconds away (year ~317 billion) is
// accepted now: the library converts the float to int64, which overflows
// to the most negative value, a date in the distant past. A token its
// issuer marked not valid before that date must not be valid today.
func TestFarFutureTimeClaimsAreNotValidYet(t *testing.T) {
	t.Parallel()
	v := newVerifier(t, auth.Options{Secret: secret})
	for _, c := range []struct {
		claim string
		value float64
	}{{"nbf", 1e19}, {"iat", 1e19}, {"nbf", 1e300}} {
		cl := claims(uuid.New(), "admin")
		cl[c.claim] = c.value
		if p, err := v.Verify(t.Context(), sign(t, jwt.SigningMethodHS256, []byte(secret), cl, "")); err == nil {
			t.Errorf("%s %g: token accepted as %s of tenant %s; want it refused (not valid yet / issued in the future)", c.claim, c.value, p.Role, p.TenantID)
		}
	}
}

// TestPublicKeysRefuseAMalformedBlock: RAGD_JWT_PUBLIC_KEYS holding a
// valid key and then a damaged PEM block (the rotation's new key, pasted
// with a broken line) starts the server without a word: pem.Decode skips
// the block it cannot decode, so the new key is silently missing and every
// token signed with it is refused as "invalid token" while the
// configuration looked accepted. New documents its errors as "a PEM block
// that is not a supported public key"; a block that is not a key at all
// is worse, and should be refused the same way.
func TestPublicKeysRefuseAMalformedBlock(t *testing.T) {
	t.Parallel()
	keys(t)
	next := pemOf(t, &rsaKey2.PublicKey)
	lines := strings.Split(next, "\n")
	lines[2] = "!!" + lines[2][2:] // one damaged line of the base64 body
	damaged := strings.Join(lines, "\n")
	v, err := auth.New(t.Context(), auth.Options{PublicKeys: pemOf(t, &rsaKey.PublicKey) + damaged})
	if err != nil {
		return // refused at start-up: what is wanted
	}
	_, verr := v.Verify(t.Context(), sign(t, jwt.SigningMethodRS256, rsaKey2, claims(uuid.New(), "reader"), ""))
	t.Errorf("a damaged second PEM block was accepted without error (methods %v); a token of the key it held: %v", v.Methods(), verr)
}
