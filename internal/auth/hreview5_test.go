package auth_test

import (
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestPublicKeysRefuseADamagedBlockBeforeAGoodOne: the damaged-block check
// runs only when pem.Decode finds no block at all, but pem.Decode does not
// stop at a block it cannot decode: it skips it and returns the next good
// one. A rotation's new key pasted (damaged) before the current key is
// therefore still dropped without a word; the server starts, and every
// token signed with the new key is refused as "invalid token".
func TestPublicKeysRefuseADamagedBlockBeforeAGoodOne(t *testing.T) {
	t.Parallel()
	keys(t)
	next := pemOf(t, &rsaKey2.PublicKey)
	lines := strings.Split(next, "\n")
	lines[2] = "!!" + lines[2][2:] // one damaged line of the base64 body
	damaged := strings.Join(lines, "\n")
	v, err := auth.New(t.Context(), auth.Options{PublicKeys: damaged + pemOf(t, &rsaKey.PublicKey)})
	if err != nil {
		return // refused at start-up: what is wanted
	}
	_, verr := v.Verify(t.Context(), sign(t, jwt.SigningMethodRS256, rsaKey2, claims(uuid.New(), "reader"), ""))
	t.Errorf("a damaged first PEM block followed by a good one was accepted without error; a token of the key it held: %v", verr)
}
