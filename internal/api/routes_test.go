package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
)

// TestRoutes: Routes lists every operation of the OpenAPI document, huma's
// document and docs routes and /metrics, and each listed route is served
// (no listed route falls through to the "no such route" fallback).
func TestRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	routes := b.srv.Routes()
	var want []string
	for path, item := range b.srv.API().OpenAPI().Paths {
		for method, op := range map[string]*huma.Operation{"GET": item.Get, "PUT": item.Put, "POST": item.Post, "DELETE": item.Delete, "PATCH": item.Patch} {
			if op != nil {
				want = append(want, method+" "+path)
			}
		}
	}
	want = append(want, "GET /metrics", "GET /openapi.json", "GET /docs")
	for _, w := range want {
		if !slices.Contains(routes, w) {
			t.Errorf("Routes() lacks %s: %v", w, routes)
		}
	}
	for _, r := range routes {
		method, path, ok := strings.Cut(r, " ")
		if !ok {
			t.Errorf("route %q has no method", r)
			continue
		}
		path = strings.NewReplacer("{id}", "00000000-0000-4000-8000-000000000000", "{name}", "set").Replace(path)
		w := b.do(req{method: method, path: path})
		if w.Code == http.StatusNotFound && strings.Contains(w.Body.String(), "no such route") || w.Code == http.StatusMethodNotAllowed {
			t.Errorf("%s: %d %s", r, w.Code, w.Body.String())
		}
	}
}
