package auth

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// publicKey is one configured verification key and the algorithms it may
// verify (pinned by its type, never by a token header).
type publicKey struct {
	key  any // *rsa.PublicKey, *ecdsa.PublicKey or ed25519.PublicKey
	algs []string
}

// minRSABits is the smallest RSA modulus accepted (NIST SP 800-131A).
const minRSABits = 2048

// parsePublicKeys reads one or more PEM blocks of public keys and pins the
// algorithms of each: RSA → RS256, RS384, RS512; ECDSA P-256 → ES256, P-384 →
// ES384, P-521 → ES512; Ed25519 → EdDSA. Accepted blocks: PUBLIC KEY (PKIX),
// RSA PUBLIC KEY (PKCS #1) and CERTIFICATE (its subject key).
//
// Errors: no PEM block; a private key block (a server needs only the public
// half; refusing it keeps secrets out of its configuration); an unknown block
// type or key type; an RSA key shorter than 2048 bits; an unsupported curve.
func parsePublicKeys(data []byte) ([]publicKey, error) {
	var keys []publicKey
	// pem.Decode skips what it cannot decode, before a good block too: a
	// damaged block (a key pasted with a broken line) would be missing
	// without a word, and every token signed with it refused. Every
	// "-----BEGIN" must start a block that decodes.
	begins := bytes.Count(data, []byte("-----BEGIN"))
	decoded := 0
	for n := 1; ; n++ {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		decoded++
		if strings.Contains(block.Type, "PRIVATE KEY") {
			return nil, fmt.Errorf("auth: PEM block %d is a %s: configure only public keys", n, block.Type)
		}
		var (
			key any
			err error
		)
		switch block.Type {
		case "PUBLIC KEY":
			key, err = x509.ParsePKIXPublicKey(block.Bytes)
		case "RSA PUBLIC KEY":
			key, err = x509.ParsePKCS1PublicKey(block.Bytes)
		case "CERTIFICATE":
			var cert *x509.Certificate
			if cert, err = x509.ParseCertificate(block.Bytes); err == nil {
				key = cert.PublicKey
			}
		default:
			err = fmt.Errorf("unsupported PEM block type %q", block.Type)
		}
		if err != nil {
			return nil, fmt.Errorf("auth: PEM block %d: %w", n, err)
		}
		pk, err := pinned(key)
		if err != nil {
			return nil, fmt.Errorf("auth: PEM block %d: %w", n, err)
		}
		keys = append(keys, pk)
	}
	if decoded < begins {
		return nil, fmt.Errorf("auth: %d of %d PEM blocks cannot be decoded (a damaged line or a missing END line)", begins-decoded, begins)
	}
	if len(keys) == 0 {
		return nil, errors.New("auth: no PEM public key found (want -----BEGIN PUBLIC KEY----- blocks)")
	}
	return keys, nil
}

func pinned(key any) (publicKey, error) {
	switch k := key.(type) {
	case *rsa.PublicKey:
		if k.N.BitLen() < minRSABits {
			return publicKey{}, fmt.Errorf("RSA key of %d bits; at least %d required", k.N.BitLen(), minRSABits)
		}
		return publicKey{key: k, algs: []string{"RS256", "RS384", "RS512"}}, nil
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return publicKey{key: k, algs: []string{"ES256"}}, nil
		case elliptic.P384():
			return publicKey{key: k, algs: []string{"ES384"}}, nil
		case elliptic.P521():
			return publicKey{key: k, algs: []string{"ES512"}}, nil
		}
		return publicKey{}, fmt.Errorf("unsupported ECDSA curve %s", k.Curve.Params().Name)
	case ed25519.PublicKey:
		return publicKey{key: k, algs: []string{"EdDSA"}}, nil
	}
	return publicKey{}, fmt.Errorf("unsupported public key type %T", key)
}
