package provider

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Backoff defaults shared by the clients; each client lets callers change
// them (WithBackoff and the like).
const (
	DefaultWaitMin = 500 * time.Millisecond // wait before the first retry, before jitter
	DefaultWaitMax = 10 * time.Second       // cap on the exponential wait, before jitter
)

// MaxRetryAfter caps the wait a server can ask for with Retry-After, so one
// answer cannot park a request for an hour; the caller's context still
// bounds the whole call.
const MaxRetryAfter = time.Minute

// Permanent marks err, found while handling a response, as not retryable:
// CheckRetry stops on it and the Client returns err itself, unwrapped from
// the mark. It returns nil for nil, and err unchanged if it already carries
// the mark.
func Permanent(err error) error {
	if err == nil || IsPermanent(err) {
		return err
	}
	return permanentError{err}
}

// IsPermanent reports whether err, or an error it wraps, was marked by
// Permanent.
func IsPermanent(err error) bool {
	var p permanentError
	return errors.As(err, &p)
}

// permanentError is the mark Permanent puts on an error.
type permanentError struct{ err error }

func (p permanentError) Error() string { return p.err.Error() }
func (p permanentError) Unwrap() error { return p.err }

// CheckRetry is a retryablehttp.CheckRetry: it reports whether the attempt
// that ended with resp or err should be retried. It returns (false,
// ctx.Err()) once ctx has ended and false for errors marked by Permanent;
// otherwise it follows retryablehttp.DefaultRetryPolicy: true for transport
// errors (except redirect loops, bad schemes or headers and untrusted
// certificates), 429, status 0 and 5xx other than 501; false for the rest.
// Its error is nil except for the context's.
func CheckRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if IsPermanent(err) {
		return false, nil
	}
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}

// Backoff is a retryablehttp.Backoff: the wait before retry attempt+1
// (attempt counts from 0) after resp, which is nil after a transport error.
//
// If resp is a 429 or 503 with a valid Retry-After (see RetryAfter), it
// returns the server's wait capped at MaxRetryAfter, without jitter.
// Otherwise it takes d = waitMin·2^attempt capped at waitMax and returns a
// uniform draw from [d/2, d] ("equal jitter"), so concurrent requests do not
// retry in lockstep. With 0 <= waitMin <= waitMax the result is in
// [0, max(waitMax, MaxRetryAfter)].
func Backoff(waitMin, waitMax time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := RetryAfter(resp.Header, time.Now()); ok {
			return min(d, MaxRetryAfter)
		}
	}
	d := exponential(waitMin, waitMax, attempt)
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d/2+1)
}

// exponential returns waitMin·2^attempt, or waitMax if that is larger or
// does not fit in a time.Duration.
func exponential(waitMin, waitMax time.Duration, attempt int) time.Duration {
	f := math.Ldexp(float64(waitMin), attempt)
	if f >= float64(waitMax) {
		return waitMax
	}
	return time.Duration(f)
}

// RetryAfter parses the Retry-After header of h (its first value) into a
// wait measured from now. Both forms of RFC 9110 §10.2.3 are accepted:
// delay-seconds ("120": 120s; too large a number saturates at the largest
// time.Duration) and HTTP-date ("Fri, 31 Dec 1999 23:59:59 GMT", and the
// obsolete RFC 850 and asctime forms; a date not after now gives 0). It
// reports false when the header is absent or is neither form, for example
// "-1", "1.5" or "soon".
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if strings.Trim(v, "0123456789") == "" { // delay-seconds = 1*DIGIT
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > math.MaxInt64/int64(time.Second) {
			return time.Duration(math.MaxInt64), true // only overflow gets here
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}
