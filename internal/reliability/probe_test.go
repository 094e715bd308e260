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
		{Method: "PUT", Path: "/v1/documents", Body: "{\"source_uri\":\"a.md\",\"content\":\"hello \xff\xfe world text here\"}"},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "b.md", "content": "hello world", "title": "ti\x00tle"}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "c.md", "content": "hello world", "metadata": map[string]any{"k": "v\x00"}}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "c2.md", "content": "hello world", "metadata": map[string]any{"k\x00": "v"}}},
		{Method: "POST", Path: "/v1/search", Body: map[string]any{"query": "hello\x00world"}},
		{Method: "POST", Path: "/v1/answer", Body: map[string]any{"question": "hello\x00world"}},
		{Method: "POST", Path: "/v1/search", Body: map[string]any{"query": "hello", "source_uri_prefix": "a\x00"}},
		{Method: "POST", Path: "/v1/search", Body: map[string]any{"query": "hello", "metadata": map[string]any{"k": "\x00"}}},
		{Method: "GET", Path: "/v1/documents?source_uri_prefix=%00"},
		{Method: "DELETE", Path: "/v1/documents?source_uri=%00"},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"a","query":"hello"}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello"}`, ContentType: "text/plain"},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello"}`, ContentType: "-"},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello"}`, ContentType: "application/xml"},
		{Method: "POST", Path: "/v1/search", Body: `[1,2]`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello","top_k":1e400}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello","top_k":2.5}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello","top_k":"3"}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello","top_k":0}`},
		{Method: "POST", Path: "/v1/search?access_token=x", Body: `{"query":"hello"}`},
		{Method: "POST", Path: "/v1/search", Body: `{"query":"hello", "metadata":` + strings.Repeat(`{"a":`, 5000) + `1` + strings.Repeat(`}`, 5000) + `}`},
		{Method: "PUT", Path: "/v1/documents", Body: `{"source_uri":"deep.md","content":"x y z words", "metadata":` + strings.Repeat(`{"a":`, 5000) + `1` + strings.Repeat(`}`, 5000) + `}`},
		{Method: "PUT", Path: "/v1/documents", Body: `{"source_uri":"deep.md","content":"x y z words", "metadata":` + strings.Repeat(`{"a":`, 20000) + `1` + strings.Repeat(`}`, 20000) + `}`},
		{Method: "POST", Path: "/v1/search", Body: map[string]any{"query": "hello \u202e world \u200b"}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "rtl\u202e.md", "content": "hello world"}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "word.txt", "content": strings.Repeat("a", 300000)}},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "deep.html", "content": strings.Repeat("<div>", 100000) + "deep text here" }},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "deepmd.md", "content": strings.Repeat(">", 100000) + " deep text here" }},
		{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "deeplist.md", "content": strings.Repeat("- ", 20000) + " deep text here" }},
		{Method: "POST", Path: "/v1/search", Body: map[string]any{"query": "'; DROP TABLE chunks; -- & | ! :* <-> \\ ( ) \"'"}},
	}
	for _, c := range cases {
		c.Token = ed
		r := s.do(c)
		b := r.String()
		if len(b) > 300 { b = b[:300] }
		t.Logf("%s %s %.80q → %s", c.Method, c.Path, c.Body, b)
	}
	t.Log(countRows(t, tn.ID)); t.Log(s.Logs.String())
}
