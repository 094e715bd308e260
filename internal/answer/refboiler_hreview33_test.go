package answer

import (
	"strings"
	"testing"
)

// TestHReview33FlagRowAnswersWhereItMayBeUsed: a reference entry's table of
// where a keyword may be used is boilerplate for "what does it do", but it
// is the answer to "can I use it in a frontend?" and "which sections may it
// be used in?". Before this change the extractive answer quoted the row
// ("frontend: no"); flagRow now makes it never quotable, and the answer is
// the entry's description, which does not say.
func TestHReview33FlagRowAnswersWhereItMayBeUsed(t *testing.T) {
	t.Parallel()
	src := []Source{{ChunkID: "a", SourceURI: "configuration.html", Title: "Configuration", HeadingPath: "Configuration > 4.2. Keywords > option httpchk",
		Content: `option httpchk

May be used in sections :

| defaults | frontend | listen | backend |
|---|---|---|---|
| yes | no | yes | yes |

Arguments : none

Enables HTTP protocol to check on the servers health, which a server passes by answering with a 2xx or 3xx status.

See also : "option httpchk", "http-check send" and "http-check expect".`}}
	for _, q := range []string{"Can option httpchk be used in a frontend section?", "Which sections may option httpchk be used in?"} {
		r := Extractive(q, src, 1)
		if r.Refused || !strings.Contains(r.Answer, "frontend: no") {
			t.Errorf("%q: answer %q; want the row saying where it may be used (frontend: no)", q, r.Answer)
		}
	}
}

// TestHReview33EmptyLabelAnswersItsOwnQuestion: "Arguments : none" and
// "Rate limit: none." say nothing about what a keyword or an endpoint does,
// but each is the whole answer to the question about its field. Before
// this change they were quoted for it; emptyLabel makes them never
// quotable and the answer quotes an unrelated sentence.
func TestHReview33EmptyLabelAnswersItsOwnQuestion(t *testing.T) {
	t.Parallel()
	httpchk := []Source{{ChunkID: "a", SourceURI: "configuration.html", Title: "Configuration", HeadingPath: "Configuration > 4.2. Keywords > option httpchk",
		Content: "option httpchk\n\nArguments : none\n\nEnables HTTP protocol to check on the servers health, which a server passes by answering with a 2xx or 3xx status."}}
	ping := []Source{{ChunkID: "b", SourceURI: "api.html", Title: "API", HeadingPath: "API > GET /ping",
		Content: "GET /ping\n\nReturns 200 with the body pong when the server is up, for load balancers and monitors.\n\nAuthentication: none.\n\nRate limit: none."}}
	for q, c := range map[string]struct {
		src  []Source
		want string
	}{
		"What arguments does option httpchk take?": {httpchk, "Arguments : none"},
		"Is GET /ping rate limited?":               {ping, "Rate limit: none"},
	} {
		r := Extractive(q, c.src, 1)
		if r.Refused || !strings.Contains(r.Answer, c.want) {
			t.Errorf("%q: answer %q; want it to quote %q", q, r.Answer, c.want)
		}
	}
}
