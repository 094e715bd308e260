package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestBackoffBoundsAndJitter(t *testing.T) {
	t.Parallel()
	const waitMin, waitMax = 100 * time.Millisecond, time.Second
	for attempt, want := range []time.Duration{100, 200, 400, 800, 1000, 1000, 1000} {
		ceil := want * time.Millisecond
		lo, hi := time.Duration(math.MaxInt64), time.Duration(0)
		for range 500 {
			d := Backoff(waitMin, waitMax, attempt, nil)
			if d < ceil/2 || d > ceil {
				t.Fatalf("attempt %d: wait %v outside [%v, %v]", attempt, d, ceil/2, ceil)
			}
			lo, hi = min(lo, d), max(hi, d)
		}
		// 500 uniform draws from [ceil/2, ceil] all landing in one quarter
		// of it has probability 2^-499: this is jitter, not a constant.
		if lo > ceil*5/8 || hi < ceil*7/8 {
			t.Errorf("attempt %d: waits span only [%v, %v] of [%v, %v]", attempt, lo, hi, ceil/2, ceil)
		}
	}
}

func TestBackoffEdges(t *testing.T) {
	t.Parallel()
	if d := Backoff(0, 0, 3, nil); d != 0 {
		t.Errorf("zero bounds: %v, want 0", d)
	}
	if d := Backoff(1, 1, 0, nil); d != 1 {
		t.Errorf("1ns bounds: %v, want 1ns (too small to jitter)", d)
	}
	// 2^200 overflows a Duration: the cap applies.
	if d := Backoff(time.Second, 4*time.Second, 200, nil); d < 2*time.Second || d > 4*time.Second {
		t.Errorf("huge attempt: %v, want in [2s, 4s]", d)
	}
}

func TestBackoffRetryAfter(t *testing.T) {
	t.Parallel()
	const waitMin, waitMax = time.Millisecond, 4 * time.Millisecond
	for _, tc := range []struct {
		status     int
		retryAfter string
		want       time.Duration // the exact wait, unless jittered
		jittered   bool          // the header is ignored: want the jittered backoff
	}{
		{status: http.StatusTooManyRequests, retryAfter: "3", want: 3 * time.Second},
		{status: http.StatusServiceUnavailable, retryAfter: "2", want: 2 * time.Second},
		{status: http.StatusTooManyRequests, retryAfter: "0", want: 0},
		{status: http.StatusTooManyRequests, retryAfter: "3600", want: MaxRetryAfter},
		{status: http.StatusServiceUnavailable, retryAfter: "99999999999999999999", want: MaxRetryAfter},
		{status: http.StatusInternalServerError, retryAfter: "3", jittered: true}, // only 429 and 503 count
		{status: http.StatusBadGateway, retryAfter: "3", jittered: true},
		{status: http.StatusTooManyRequests, retryAfter: "soon", jittered: true},
		{status: http.StatusTooManyRequests, jittered: true},
	} {
		t.Run(fmt.Sprintf("%d %q", tc.status, tc.retryAfter), func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				w.WriteHeader(tc.status)
			})
			d := Backoff(waitMin, waitMax, 0, s.get(t))
			switch {
			case tc.jittered && (d < waitMin/2 || d > waitMin):
				t.Errorf("wait %v, want the jittered backoff in [%v, %v]", d, waitMin/2, waitMin)
			case !tc.jittered && d != tc.want:
				t.Errorf("wait %v, want %v", d, tc.want)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)
	later := now.Add(90 * time.Second)
	for _, tc := range []struct {
		name   string
		header string
		want   time.Duration
		ok     bool
	}{
		{"seconds", "120", 120 * time.Second, true},
		{"zero seconds", "0", 0, true},
		{"leading zeros", "007", 7 * time.Second, true},
		{"seconds overflow saturates", "99999999999999999999", math.MaxInt64, true},
		{"IMF-fixdate", later.Format(http.TimeFormat), 90 * time.Second, true},
		{"RFC 850 date", later.Format(time.RFC850), 90 * time.Second, true},
		{"asctime date", later.Format(time.ANSIC), 90 * time.Second, true},
		{"date in the past", "Fri, 31 Dec 1999 23:59:59 GMT", 0, true},
		{"date equal to now", now.Format(http.TimeFormat), 0, true},
		{"absent", "", 0, false},
		{"negative", "-1", 0, false},
		{"signed", "+5", 0, false},
		{"fraction", "1.5", 0, false},
		{"unit", "5s", 0, false},
		{"words", "soon", 0, false},
		{"date without zone", "Fri, 31 Dec 1999 23:59:59", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			if tc.header != "" {
				h.Set("Retry-After", tc.header)
			}
			got, ok := RetryAfter(h, now)
			if got != tc.want || ok != tc.ok {
				t.Errorf("RetryAfter(%q) = %v, %v; want %v, %v", tc.header, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestRetryAfterFirstValue(t *testing.T) {
	t.Parallel()
	h := http.Header{"Retry-After": {"5", "60"}}
	if got, ok := RetryAfter(h, time.Now()); got != 5*time.Second || !ok {
		t.Errorf("RetryAfter = %v, %v; want the first value, 5s", got, ok)
	}
}

func TestCheckRetryStatuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		retry  bool
	}{
		{200, false}, {204, false},
		{400, false}, {401, false}, {403, false}, {404, false}, {413, false}, {422, false},
		{429, true},
		{500, true}, {501, false}, {502, true}, {503, true}, {504, true}, {599, true},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(tc.status) })
			retry, err := CheckRetry(context.Background(), s.get(t), nil)
			if retry != tc.retry || err != nil {
				t.Errorf("CheckRetry(%d) = %v, %v; want %v, nil", tc.status, retry, err, tc.retry)
			}
		})
	}
}

func TestCheckRetryErrors(t *testing.T) {
	t.Parallel()
	// A refused connection (refusingURL).
	_, refused := http.Get(refusingURL)
	if refused == nil {
		t.Fatal("GET of a closed server succeeded")
	}
	// An untrusted certificate: a TLS server fetched with a default client.
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the failed handshake
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	_, untrusted := (&http.Client{}).Get(tlsSrv.URL)
	if untrusted == nil {
		t.Fatal("GET with an untrusted certificate succeeded")
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()

	for _, tc := range []struct {
		name    string
		ctx     context.Context
		err     error
		retry   bool
		wantErr error
	}{
		{"connection refused", context.Background(), refused, true, nil},
		{"truncated body", context.Background(), fmt.Errorf("read response: %w", errors.New("unexpected EOF")), true, nil},
		{"untrusted certificate", context.Background(), untrusted, false, nil},
		{"permanent", context.Background(), Permanent(errors.New("malformed")), false, nil},
		{"wrapped permanent", context.Background(), fmt.Errorf("batch 2: %w", Permanent(errors.New("malformed"))), false, nil},
		{"context ended", canceled, refused, false, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			retry, err := CheckRetry(tc.ctx, nil, tc.err)
			if retry != tc.retry || !errors.Is(err, tc.wantErr) {
				t.Errorf("CheckRetry = %v, %v; want %v, %v", retry, err, tc.retry, tc.wantErr)
			}
		})
	}
}

func TestPermanent(t *testing.T) {
	t.Parallel()
	base := errors.New("boom")
	p := Permanent(base)
	if !IsPermanent(p) || !errors.Is(p, base) || p.Error() != "boom" {
		t.Errorf("Permanent(boom) = %v: IsPermanent %v, Is(boom) %v", p, IsPermanent(p), errors.Is(p, base))
	}
	if Permanent(p) != p {
		t.Error("Permanent of a permanent error wraps it again")
	}
	if Permanent(nil) != nil {
		t.Error("Permanent(nil) != nil")
	}
	if IsPermanent(base) || IsPermanent(nil) {
		t.Error("IsPermanent true for an unmarked error")
	}
}

// refusingURL is an address where nothing listens (port 1), so every
// connection is refused; a closed test server's port may be given to
// another test's server meanwhile.
const refusingURL = "http://127.0.0.1:1"
