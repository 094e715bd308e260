package api_test

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// c05d2ce reads a <form> as content when it holds a heading, a main or
// article element, or two paragraphs (holdsContent), so that ASP.NET pages
// wrapped in one postback form keep their text. WordPress's comment form,
// at the foot of every post of the most common CMS (inside <main> in
// its themes, where the extractor reads), holds several
// paragraphs of controls (comment notes, one <p> per field, the submit
// button's), so it now passes for content: every blog post stores "Your
// email address will not be published. Required fields are marked",
// "Save my name, email, and website in this browser for the next time I
// comment." and the field labels, which then match any question about
// e-mail addresses or names and are quoted in answers. A form of controls
// is chrome, however many paragraphs lay its fields out.
func TestCommentFormIsNotContent(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	page := `<!DOCTYPE html><html><head><title>Rotating the VPN certificate</title></head><body>
<main id="main" class="site-main"><article><h1>Rotating the VPN certificate</h1>
<p>Certificates expire after one year; request a new one from the service desk two weeks ahead.</p>
<p>Import it in the client under Settings, then restart the tunnel.</p></article>
<div id="respond" class="comment-respond">
<h3 id="reply-title" class="comment-reply-title">Leave a Reply</h3>
<form action="https://blog.example.test/wp-comments-post.php" method="post" id="commentform" class="comment-form">
<p class="comment-notes"><span id="email-notes">Your email address will not be published.</span> Required fields are marked <span class="required">*</span></p>
<p class="comment-form-comment"><label for="comment">Comment</label> <textarea id="comment" name="comment"></textarea></p>
<p class="comment-form-author"><label for="author">Name <span class="required">*</span></label> <input id="author" name="author" type="text"></p>
<p class="comment-form-email"><label for="email">Email <span class="required">*</span></label> <input id="email" name="email" type="email"></p>
<p class="comment-form-cookies-consent"><input id="wp-comment-cookies-consent" type="checkbox"> <label for="wp-comment-cookies-consent">Save my name, email, and website in this browser for the next time I comment.</label></p>
<p class="form-submit"><input name="submit" type="submit" id="submit" class="submit" value="Post Comment"></p>
</form></div>
</main>
</body></html>`
	out := decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: ed,
		body: map[string]any{"source_uri": "https://blog.example.test/vpn-cert.html", "content": page, "content_type": "text/html"}}), 200)
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String() + "?include_content=true", token: ed}), 200)
	if doc.Content == nil || !strings.Contains(*doc.Content, "request a new one from the service desk") {
		t.Fatalf("the article's text is missing: %v", doc.Content)
	}
	for _, s := range []string{"Your email address will not be published", "Save my name, email, and website"} {
		if strings.Contains(*doc.Content, s) {
			t.Errorf("the comment form's boilerplate %q is stored as the page's text:\n%s", s, *doc.Content)
		}
	}
}
