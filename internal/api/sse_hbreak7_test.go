package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestStreamedAnswerRefusesInvalidInputBeforeStreaming (h-break7): the
// hostile-input catalogue promises that an SSE request with invalid input
// gets "a 422 problem, not a stream". The handler checks only what it
// validates itself (an empty or too long question, top_k) before answering
// 200 text/event-stream; everything the search validates later — a NUL in
// source_uri_prefix or in a metadata filter key, a question that is empty
// once normalised (zero-width characters only), a question that normalising
// (NFC) makes longer than the limit — is refused as JSON (422) but streamed
// as 200 followed by `event: error`. A client, proxy or metrics that read
// the status see a success.
//
// Expected: the same 422 problem as the JSON answer, before any stream.
func TestStreamedAnswerRefusesInvalidInputBeforeStreaming(t *testing.T) {
	t.Parallel()
	b := setup(t)
	reader := token(t, b.a.ID, auth.RoleReader)
	b.upsert(token(t, b.a.ID, auth.RoleEditor), "install.md", docInstall)
	cases := map[string]string{
		"NUL in source_uri_prefix": `{"question":"how do I install widgets","source_uri_prefix":"docs/\u0000"}`,
		"NUL in a metadata key":    `{"question":"how do I install widgets","metadata":{"a\u0000b":"x"}}`,
		"zero-width question":      `{"question":"\u200b\u200b\u2060"}`,
		// U+FB2C is three code points in NFC: 100 of them are 300 characters,
		// past this suite's 200-character limit once normalised.
		"question longer once normalised": `{"question":"` + strings.Repeat("\ufb2c", 100) + `"}`,
	}
	for name, body := range cases {
		j := b.do(req{method: "POST", path: "/v1/answer", token: reader, body: body})
		if j.Code != http.StatusUnprocessableEntity {
			t.Fatalf("%s: JSON answer status %d, want 422 (body %s)", name, j.Code, j.Body.String())
		}
		s := b.do(req{method: "POST", path: "/v1/answer", token: reader, body: body, header: map[string]string{"Accept": "text/event-stream"}})
		if s.Code != http.StatusUnprocessableEntity || s.Header().Get("Content-Type") != "application/problem+json" {
			first, _, _ := strings.Cut(s.Body.String(), "\n\n")
			t.Errorf("%s: streamed answer status %d %s, want 422 application/problem+json as the JSON answer; body starts %q",
				name, s.Code, s.Header().Get("Content-Type"), first[:min(len(first), 200)])
		}
	}
}

// TestAnswerHonoursAcceptQZero (h-break7): the answer streams whenever the
// Accept header contains "text/event-stream" anywhere, so a client that
// says it does NOT accept a stream — `Accept: application/json,
// text/event-stream;q=0` (RFC 9110 §12.4.2: q=0 means "not acceptable") —
// gets text/event-stream it then fails to parse as JSON.
//
// Expected: a media range with q=0 is not chosen; the answer is JSON.
func TestAnswerHonoursAcceptQZero(t *testing.T) {
	t.Parallel()
	b := setup(t)
	reader := token(t, b.a.ID, auth.RoleReader)
	b.upsert(token(t, b.a.ID, auth.RoleEditor), "install.md", docInstall)
	w := b.do(req{method: "POST", path: "/v1/answer", token: reader, body: `{"question":"how do I install widgets"}`,
		header: map[string]string{"Accept": "application/json, text/event-stream;q=0"}})
	if ct := w.Header().Get("Content-Type"); w.Code != http.StatusOK || ct != "application/json" {
		t.Errorf("Accept: application/json, text/event-stream;q=0 → %d %s, want 200 application/json; body starts %.120q",
			w.Code, ct, w.Body.String())
	}
}
