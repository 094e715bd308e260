package provider

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// testServer is an in-process HTTP server that counts requests and records
// their headers; reply answers request n (1-based).
type testServer struct {
	*httptest.Server
	calls   atomic.Int32
	mu      sync.Mutex
	headers []http.Header
}

func newTestServer(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, n int)) *testServer {
	t.Helper()
	s := &testServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.calls.Add(1))
		s.mu.Lock()
		s.headers = append(s.headers, r.Header.Clone())
		s.mu.Unlock()
		reply(w, r, n)
	}))
	t.Cleanup(s.Close)
	return s
}

// header returns the headers of request i (0-based).
func (s *testServer) header(i int) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.headers[i]
}

// get fetches the server's root with a plain client and returns the
// response, its body closed when the test ends.
func (s *testServer) get(t *testing.T) *http.Response {
	t.Helper()
	resp, err := s.Client().Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}
