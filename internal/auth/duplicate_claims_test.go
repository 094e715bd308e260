package auth_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/auth"
)

// hs256 signs header and payload (JSON texts, as written) with key.
func hs256(header, payload string, key []byte) string {
	enc := base64.RawURLEncoding
	unsigned := enc.EncodeToString([]byte(header)) + "." + enc.EncodeToString([]byte(payload))
	m := hmac.New(sha256.New, key)
	m.Write([]byte(unsigned))
	return unsigned + "." + enc.EncodeToString(m.Sum(nil))
}

// TestDuplicatedClaimsAreRefused: a validly signed token naming its tenant
// claim (or any claim, or a header parameter) twice is refused: the JWT
// library reads the last value, another reader of the same token may read
// the first, and the two would serve two tenants. The same token with each
// claim once is accepted.
func TestDuplicatedClaimsAreRefused(t *testing.T) {
	t.Parallel()
	v := newVerifier(t, auth.Options{Secret: secret})
	a, b := uuid.New(), uuid.New()
	exp := time.Now().Add(time.Hour).Unix()
	header := `{"alg":"HS256","typ":"JWT"}`
	once := fmt.Sprintf(`{"tenant_id":%q,"role":"reader","sub":"u","exp":%d}`, b, exp)
	if p, err := v.Verify(t.Context(), hs256(header, once, []byte(secret))); err != nil || p.TenantID != b {
		t.Fatalf("control: %+v %v, want tenant %s", p, err, b)
	}
	for name, tok := range map[string]string{
		"tenant": hs256(header, fmt.Sprintf(`{"tenant_id":%q,"role":"reader","tenant_id":%q,"sub":"u","exp":%d}`, a, b, exp), []byte(secret)),
		"role":   hs256(header, fmt.Sprintf(`{"tenant_id":%q,"role":"reader","sub":"u","role":"admin","exp":%d}`, b, exp), []byte(secret)),
		"header": hs256(`{"alg":"HS256","typ":"JWT","alg":"HS256"}`, once, []byte(secret)),
	} {
		p, err := v.Verify(t.Context(), tok)
		if err == nil || !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), "twice") {
			t.Errorf("%s named twice: %+v, %v; want ErrInvalidToken saying so", name, p, err)
		}
	}
}
