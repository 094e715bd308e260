// Package provider is the HTTP plumbing shared by ragd's clients of model
// providers: embed's OpenAI-compatible embeddings client, llm's chat
// completions client and rerank's /rerank client. It holds what those
// clients must do alike, so that a fix to retries or error reporting lands
// in all three at once: endpoint URL joining, JSON POSTs with retries,
// size-limited body reading, and a StatusError whose body excerpt never
// shows the API key. Request and response shapes stay in the client
// packages.
//
// # Retry policy
//
// A Client makes at most Config.MaxRetries+1 attempts per request, through
// hashicorp/go-retryablehttp with CheckRetry and Backoff below.
//
// Retried (CheckRetry): transport errors and per-attempt timeouts (a reset
// connection, a refused dial, a truncated body), 429 Too Many Requests, and
// every 5xx except 501 Not Implemented, which will not change on a retry.
// Not retried: other statuses (4xx: the request itself is wrong, or the key
// is), errors a response handler marks with Permanent (a malformed 2xx body,
// say), redirect loops, bad URL schemes and untrusted TLS certificates, and
// anything once the request's context has ended.
//
// Wait before retry i (0-based, Backoff): WaitMin·2^i capped at WaitMax,
// with "equal jitter": a uniform draw from the upper half of that value,
// so that concurrent requests that failed together do not retry in
// lockstep. When a 429 or 503 carries Retry-After, the server's wait is
// used instead, without jitter, capped at MaxRetryAfter so that one answer
// cannot park a request for an hour. The caller's context bounds the whole
// call, waits included.
//
// Sources: RFC 9110 §10.2.3 (Retry-After: delay-seconds or HTTP-date);
// RFC 9110 §15.6.2 (501: the server lacks the feature, a retry cannot help);
// RFC 6585 §4 (429 Too Many Requests, which may carry Retry-After).
package provider
