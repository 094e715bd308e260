package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

const testKey = "sk-provider-secret-31415"

var errMalformed = errors.New("test: malformed response")

// newTestClient returns a Client named "test" with the test key, 2 retries
// and millisecond backoff.
func newTestClient(t *testing.T) *Client {
	t.Helper()
	cfg := DefaultConfig(2*time.Second, 2)
	cfg.APIKey = testKey
	cfg.WaitMin, cfg.WaitMax = time.Millisecond, 2*time.Millisecond
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return NewClient("test", cfg.AttemptClient(), cfg)
}

// readAll is a Post handler that stores the body in *dst.
func readAll(dst *string) func(*http.Response) error {
	return func(resp *http.Response) error {
		raw, err := ReadLimited(resp.Body, 1<<10, errMalformed)
		*dst = string(raw)
		return err
	}
}

func TestPostSendsJSONWithHeaders(t *testing.T) {
	t.Parallel()
	var gotBody string
	s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		raw, _ := io.ReadAll(r.Body)
		gotBody = r.Method + " " + r.URL.Path + " " + string(raw)
		fmt.Fprint(w, `{"ok":true}`)
	})
	var got string
	err := newTestClient(t).Post(context.Background(), s.URL+"/v1/things", []byte(`{"q":1}`), "text/event-stream", readAll(&got))
	if err != nil || got != `{"ok":true}` {
		t.Fatalf("Post = %q, %v", got, err)
	}
	if gotBody != `POST /v1/things {"q":1}` {
		t.Errorf("server saw %q", gotBody)
	}
	h := s.header(0)
	for name, want := range map[string]string{
		"Authorization": "Bearer " + testKey,
		"Content-Type":  "application/json",
		"Accept":        "text/event-stream",
		"User-Agent":    "ragd",
	} {
		if h.Get(name) != want {
			t.Errorf("%s = %q, want %q", name, h.Get(name), want)
		}
	}
}

func TestPostWithoutKeySendsNoAuthorization(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) {})
	cfg := DefaultConfig(time.Second, 0)
	c := NewClient("test", nil, cfg)
	if err := c.Post(context.Background(), s.URL, []byte(`{}`), "application/json", func(*http.Response) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.header(0)["Authorization"]; ok {
		t.Error("Authorization sent without an API key")
	}
}

func TestPostRetriesThenSucceeds(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch n {
		case 1:
			w.WriteHeader(http.StatusServiceUnavailable)
		case 2:
			w.WriteHeader(http.StatusTooManyRequests)
		default:
			fmt.Fprint(w, "fine")
		}
	})
	var got string
	if err := newTestClient(t).Post(context.Background(), s.URL, nil, "application/json", readAll(&got)); err != nil || got != "fine" {
		t.Fatalf("Post = %q, %v", got, err)
	}
	if n := s.calls.Load(); n != 3 {
		t.Errorf("%d calls, want 3", n)
	}
}

func TestPostGivesUpWithStatusError(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Error(w, "overloaded; your key "+testKey+" is fine", http.StatusBadGateway)
	})
	err := newTestClient(t).Post(context.Background(), s.URL, nil, "application/json", readAll(new(string)))
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusBadGateway || se.Client != "test" {
		t.Fatalf("err = %v, want a 502 *StatusError of client test", err)
	}
	if n := s.calls.Load(); n != 3 {
		t.Errorf("%d calls, want 3 (MaxRetries 2)", n)
	}
	if strings.Contains(err.Error(), testKey) || !strings.Contains(se.Body, "[REDACTED]") {
		t.Errorf("key not redacted: %v", err)
	}
	want := "giving up after 3 attempts: test: server returned HTTP 502: overloaded; your key [REDACTED] is fine"
	if err.Error() != want {
		t.Errorf("err = %q\nwant  %q", err, want)
	}
}

func TestPostDoesNotRetryClientErrors(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusNotImplemented} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				http.Error(w, `{"error":"bad key `+testKey+`"}`, status)
			})
			called := false
			err := newTestClient(t).Post(context.Background(), s.URL, nil, "application/json", func(*http.Response) error {
				called = true
				return nil
			})
			var se *StatusError
			if !errors.As(err, &se) || se.StatusCode != status {
				t.Fatalf("err = %v, want StatusError %d", err, status)
			}
			if se.Body != `{"error":"bad key [REDACTED]"}` {
				t.Errorf("Body = %q", se.Body)
			}
			if n := s.calls.Load(); n != 1 || called {
				t.Errorf("%d calls (handler called: %v), want 1 and no handler call", n, called)
			}
			if IsPermanent(err) || strings.Contains(err.Error(), "giving up") {
				t.Errorf("err = %v: carries the permanent mark or a retry count", err)
			}
		})
	}
}

func TestPostHandlerErrors(t *testing.T) {
	t.Parallel()
	t.Run("permanent is not retried and is unwrapped", func(t *testing.T) {
		t.Parallel()
		s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) { fmt.Fprint(w, "{oops") })
		err := newTestClient(t).Post(context.Background(), s.URL, nil, "application/json", func(*http.Response) error {
			return Permanent(fmt.Errorf("%w: bad JSON", errMalformed))
		})
		if !errors.Is(err, errMalformed) || IsPermanent(err) || s.calls.Load() != 1 {
			t.Errorf("err = %v after %d calls, want errMalformed unmarked after 1", err, s.calls.Load())
		}
	})
	t.Run("transient is retried", func(t *testing.T) {
		t.Parallel()
		s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) { fmt.Fprint(w, n) })
		var got string
		err := newTestClient(t).Post(context.Background(), s.URL, nil, "application/json", func(resp *http.Response) error {
			if err := readAll(&got)(resp); err != nil {
				return err
			}
			if got != "3" {
				return errors.New("connection reset")
			}
			return nil
		})
		if err != nil || got != "3" {
			t.Errorf("Post = %q, %v; want success on the third attempt", got, err)
		}
	})
	t.Run("too large a body is permanent", func(t *testing.T) {
		t.Parallel()
		s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) { fmt.Fprint(w, strings.Repeat("x", 2<<10)) })
		err := newTestClient(t).Post(context.Background(), s.URL, nil, "application/json", readAll(new(string)))
		if !errors.Is(err, errMalformed) || !strings.Contains(err.Error(), "exceeds 1024 bytes") || s.calls.Load() != 1 {
			t.Errorf("err = %v after %d calls", err, s.calls.Load())
		}
	})
}

func TestPostTransportErrorRetried(t *testing.T) {
	t.Parallel()
	// Port 1, where nothing listens, refuses every connection. A closed
	// test server's port does not: a parallel test's server may be given
	// it again, and this test's attempts then reached that server (its
	// 502s, one call too many for that test).
	err := newTestClient(t).Post(context.Background(), refusingURL, nil, "application/json", readAll(new(string)))
	var se *StatusError
	if err == nil || errors.As(err, &se) || !strings.Contains(err.Error(), "giving up after 3 attempts") {
		t.Errorf("err = %v, want the transport error after 3 attempts", err)
	}
}

func TestPostContextCutsRetryAfterShort(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := newTestClient(t).Post(ctx, s.URL, nil, "application/json", readAll(new(string)))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Post returned after %v; the context should end the 30s wait", el)
	}
}

func TestStatusErrorMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  StatusError
		want string
	}{
		{StatusError{Client: "llm", StatusCode: 503, Body: "overloaded"}, "llm: server returned HTTP 503: overloaded"},
		{StatusError{Client: "embed", StatusCode: 401}, "embed: server returned HTTP 401"},
		{StatusError{StatusCode: 500}, "server returned HTTP 500"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	if got := Redact("key sk-1 and sk-1 again", "sk-1"); got != "key [REDACTED] and [REDACTED] again" {
		t.Errorf("Redact = %q", got)
	}
	if got := Redact("nothing to hide", ""); got != "nothing to hide" {
		t.Errorf("Redact with no secret = %q", got)
	}
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", ErrorBodyBytes-1) + "é" + "tail" // é straddles the cut
	for _, tc := range []struct {
		name, raw, secret, want string
	}{
		{"trimmed", "  \n{\"error\":\"x\"}\n", "", `{"error":"x"}`},
		{"short kept whole", "abc", "", "abc"},
		{"exactly the limit", strings.Repeat("b", ErrorBodyBytes), "", strings.Repeat("b", ErrorBodyBytes)},
		{"cut at a rune boundary", long, "", strings.Repeat("a", ErrorBodyBytes-1) + "…"},
		{"redacted", "auth failed for " + testKey, testKey, "auth failed for [REDACTED]"},
		// The key straddles the cut: redaction comes first, so no prefix of
		// the key survives.
		{"key across the cut", strings.Repeat("c", ErrorBodyBytes-5) + testKey, testKey,
			strings.Repeat("c", ErrorBodyBytes-5) + "[REDACTED]"[:5] + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Snippet([]byte(tc.raw), tc.secret)
			if got != tc.want {
				t.Errorf("Snippet = %q\nwant      %q", got, tc.want)
			}
			if !utf8.ValidString(got) || len(strings.TrimSuffix(got, "…")) > ErrorBodyBytes {
				t.Errorf("Snippet = %q: invalid UTF-8 or over %d bytes", got, ErrorBodyBytes)
			}
		})
	}
}

func TestReadLimited(t *testing.T) {
	t.Parallel()
	raw, err := ReadLimited(strings.NewReader("12345"), 5, errMalformed)
	if err != nil || string(raw) != "12345" {
		t.Errorf("at the limit: %q, %v", raw, err)
	}
	_, err = ReadLimited(strings.NewReader("123456"), 5, errMalformed)
	if !errors.Is(err, errMalformed) || !IsPermanent(err) {
		t.Errorf("over the limit: %v, want permanent errMalformed", err)
	}
	_, err = ReadLimited(io.MultiReader(strings.NewReader("12"), iotestErrReader{}), 5, errMalformed)
	if err == nil || IsPermanent(err) || !strings.HasPrefix(err.Error(), "read response: ") {
		t.Errorf("read error: %v, want a retryable \"read response\" error", err)
	}
}

// iotestErrReader fails every read, like a reset connection.
type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, errors.New("connection reset by peer") }

func TestEndpoint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		base, want, wantErr string
	}{
		{"https://api.openai.com/v1", "https://api.openai.com/v1/embeddings", ""},
		{" http://localhost:11434/v1/ ", "http://localhost:11434/v1/embeddings", ""},
		{"http://tei:8080", "http://tei:8080/embeddings", ""},
		{"ftp://x/v1", "", `base URL "ftp://x/v1" must be an absolute http(s) URL`},
		{"/v1", "", `base URL "/v1" must be an absolute http(s) URL`},
		{"https://user:hunter2@x/v1", "https://user:hunter2@x/v1/embeddings", ""},
		{"http://user:hunter2@/v1", "", `base URL "http://user:xxxxx@/v1" must be an absolute http(s) URL`},
		{"http://x/%zz", "", "base URL: "},
	} {
		got, err := Endpoint(tc.base, "embeddings")
		switch {
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("Endpoint(%q) = %q, %v; want %q", tc.base, got, err, tc.want)
		case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
			t.Errorf("Endpoint(%q) error = %v, want one starting %q", tc.base, err, tc.wantErr)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	ok := DefaultConfig(time.Second, 2)
	if err := ok.Validate(); err != nil {
		t.Fatalf("DefaultConfig: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"zero timeout", func(c *Config) { c.Timeout = 0 }, "timeout must be > 0, got 0s"},
		{"negative retries", func(c *Config) { c.MaxRetries = -1 }, "max retries must be >= 0, got -1"},
		{"negative min", func(c *Config) { c.WaitMin = -1 }, "backoff bounds must satisfy 0 <= min <= max, got -1ns, 10s"},
		{"inverted bounds", func(c *Config) { c.WaitMin, c.WaitMax = time.Second, time.Millisecond }, "backoff bounds must satisfy 0 <= min <= max, got 1s, 1ms"},
	} {
		c := ok
		tc.edit(&c)
		if err := c.Validate(); err == nil || err.Error() != tc.want {
			t.Errorf("%s: Validate = %v, want %q", tc.name, err, tc.want)
		}
	}
	zero := Config{Timeout: time.Second}
	if err := zero.Validate(); err != nil {
		t.Errorf("no retries, no backoff: %v", err)
	}
}

func TestAttemptClientCopies(t *testing.T) {
	t.Parallel()
	rt := http.DefaultTransport.(*http.Transport).Clone()
	user := &http.Client{Transport: rt, Timeout: time.Hour}
	cfg := DefaultConfig(3*time.Second, 0)
	cfg.HTTPClient = user
	hc := cfg.AttemptClient()
	if hc == user || hc.Transport != rt || hc.Timeout != 3*time.Second || user.Timeout != time.Hour {
		t.Errorf("AttemptClient: same %v, transport kept %v, timeout %v, caller's timeout %v",
			hc == user, hc.Transport == rt, hc.Timeout, user.Timeout)
	}
	if hc := DefaultConfig(time.Second, 0).AttemptClient(); hc.Transport != nil || hc.Timeout != time.Second {
		t.Errorf("AttemptClient without HTTPClient: %+v", hc)
	}
}
