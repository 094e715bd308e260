package api_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// ASP.NET Web Forms pages, SharePoint's classic pages among them, wrap the
// whole body in one <form runat="server"> (its postback form). The HTML
// extractor drops every <form> with its subtree as page chrome, so such a
// page lost all its text: the upload of a plain policy page was refused
// with 422 "no text to extract" (a page with any text outside the form
// would be stored as that text alone). A form element holding the page's content
// is not chrome; HTML is a supported format and its body text must be read.
func TestHTMLPageInsideAFormIsRead(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	page := `<!DOCTYPE html><html><head><title>Leave policy</title></head><body>
<form method="post" action="./leave.aspx" id="aspnetForm">
<input type="hidden" name="__VIEWSTATE" value="dDwtMTA4MTk2NTk0Nzs7Pg==" />
<div id="s4-workspace"><div id="contentBox">
<h1>Leave policy</h1>
<p>Employees accrue twenty-five days of annual leave per year.</p>
<h2>Carry-over</h2>
<p>Up to five unused days carry over into the next year.</p>
</div></div>
</form></body></html>`
	body, ct := multipartBody(t, "leave.aspx.html", "text/html", []byte(page), nil)
	r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Authorization", "Bearer "+ed)
	w := httptest.NewRecorder()
	b.srv.ServeHTTP(w, r)
	out := decode[api.DocumentWrite](t, w, 200)
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String() + "?include_content=true", token: ed}), 200)
	for _, s := range []string{"twenty-five days of annual leave", "Up to five unused days carry over"} {
		if doc.Content == nil || !strings.Contains(*doc.Content, s) {
			t.Errorf("stored text lacks %q", s)
		}
	}
}
