package reliability

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/testdb"
)

func TestProbe(t *testing.T) {
	s := newServer(t, options{})
	tn := testdb.NewTenant(t, "probe", "")
	ed := token(t, tn.ID, auth.RoleEditor)
	cases := []call{
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "m.md", "content": "hello world", "title": "One", "metadata": map[string]any{"v": 1}}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "m.md", "content": "hello world", "title": "Two", "metadata": map[string]any{"v": 2}}},
		{Method: "GET", Path: "/v1/documents?limit=5"},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello"}`, ContentType: "-none-"},
		{Method: "PUT", Path: "/v1/documents", Body: ``},
		{Method: "PUT", Path: "/v1/documents", Body: `null`},
		{Method: "GET", Path: "/v1/documents/..%2f..%2fetc%2fpasswd"},
		{Method: "GET", Path: "/v1/documents/not-a-uuid"},
		{Method: "GET", Path: "/v1/documents?cursor=AAAA"},
		{Method: "GET", Path: "/v1/documents?limit=0"},
		{Method: "GET", Path: "/v1/documents?limit=1000000"},
		{Method: "GET", Path: "/v1/documents?tenant_id=x"},
		{Method: "POST", Path: "/v1/answer", Body: `{"question":"   "}`, Header: map[string]string{"Accept": "text/event-stream"}},
		{Method: "POST", Path: "/v1/answer", Body: `{"question":"hello", "top_k": 0}`},
		{Method: "POST", Path: "/v1/answer", Body: `{"question":"hello", "top_k": 51}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello", "top_k": 51}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"a"}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"x"}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"?!.,;"}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"the of and"}`},
		{Method: "POST", Path: "/v1/search", Body: map[string]any{"query": strings.Repeat("word ", 10000)}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": strings.Repeat("u", 2049), "content": "x"}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "a\nb", "content": "x"}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "a\x7fb", "content": "x"}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "ok.md", "content": "x", "metadata": map[string]any{"big": strings.Repeat("m", 70000)}}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "ok.md", "content": "x", "title": strings.Repeat("t", 1001)}},
		{Method: "DELETE", Path: "/v1/documents", Header: map[string]string{"X-HTTP-Method-Override": "GET"}},
	}
	for _, c := range cases {
		c.Token = ed
		if c.ContentType == "-none-" {
			c.ContentType = ""
			c.Body = []byte(c.Body.(string))
		}
		r := s.do(c)
		b := r.String()
		if len(b) > 300 { b = b[:300] }
		t.Logf("%s %s %.80q → %s", c.Method, c.Path, c.Body, b)
	}
}
