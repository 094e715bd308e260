package api_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestSlowBodiesDoNotShedOtherTenants: one tenant's reader opens as many
// POST /v1/search requests as the server serves at once (MaxInFlight) and
// never finishes sending their bodies (declared Content-Length, a few bytes
// sent), against the real net/http server with ragd's timeouts
// (api.NewHTTPServer, as `ragd serve` builds it). Another tenant's search is
// served: a JSON body is read whole before an admission slot is taken, so
// stalled bodies hold connections, not slots (docs/SECURITY.md: a tenant's
// client must not exhaust the server for others). Found by a breaker
// helper: before, sixteen such connections made every other tenant's
// requests 503 for the server's read timeout (70 s by default).
func TestSlowBodiesDoNotShedOtherTenants(t *testing.T) {
	const inflight = 4
	b := setup(t, func(d *api.Deps) {
		d.Limits.MaxInFlight, d.Limits.MaxQueued, d.Limits.QueueWait = inflight, 8, time.Second
	})
	b.upsert(token(t, b.b.ID, auth.RoleEditor), "b/doc.md", docInstall)
	hs := api.NewHTTPServer(b.srv, b.deps.Limits, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln) //nolint:errcheck
	t.Cleanup(func() { hs.Close() })
	addr := ln.Addr().String()

	// Tenant A's reader: inflight requests whose bodies never arrive.
	readerA := token(t, b.a.ID, auth.RoleReader)
	for i := 0; i < inflight; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "POST /v1/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"query\":\"", readerA)
	}
	time.Sleep(500 * time.Millisecond)

	// Tenant B's reader: an ordinary search.
	r, _ := http.NewRequest("POST", "http://"+addr+"/v1/search", bytes.NewReader([]byte(`{"query":"how do I install widgets"}`)))
	r.Header.Set("Authorization", "Bearer "+token(t, b.b.ID, auth.RoleReader))
	r.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("tenant B's search while tenant A holds %d stalled request bodies: %d %s; want 200", inflight, resp.StatusCode, body)
	}
}
