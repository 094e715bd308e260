// Package auth verifies the bearer JWTs that authenticate every /v1 request
// and turns them into a Principal: the tenant the caller acts for and its role.
//
// Design. A token is only as safe as the algorithm the verifier lets it choose,
// so the accepted algorithms are pinned by the configured key material, never
// by the token header (RFC 8725 §3.1): an HS256 secret accepts only HS256;
// each PEM public key accepts only the algorithms of its key type (RSA:
// RS256/RS384/RS512, ECDSA: the ES algorithm of its curve, Ed25519: EdDSA); a
// JWKS endpoint accepts only asymmetric algorithms, and a JWK that names its
// alg accepts only that one. "alg": "none" and the classic confusion attack
// (HS256 signed with an RSA public key as the HMAC secret) therefore fail
// before any signature check.
//
// Every token must carry exp; nbf and iat are honoured (with the configured
// leeway); iss and aud are required when configured. The tenant claim must be
// a UUID: the tenant is looked up by id inside its own row-level-security
// transaction, so a slug (which needs an operator's cross-tenant view) is not
// accepted.
//
// JWKS keys are fetched and cached by github.com/MicahParks/keyfunc/v3 (backed
// by github.com/MicahParks/jwkset): a periodic refresh plus a refresh when a
// token names an unknown kid, rate limited so a flood of forged kids cannot
// turn the server into a load generator against the identity provider.
package auth
