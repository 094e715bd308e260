package search

import (
	"slices"
	"testing"
)

// TestHReview29StatusPhrasesAsOtherServersWriteThem: statusPhrases knows a
// status code's reason only as Go's net/http spells it, so the phrase
// other servers put after the same code is probed word by word as names:
// Express and every Node server (http.STATUS_CODES) answer "413 Payload
// Too Large", RFC 9110 and Python 3.13's http.HTTPStatus name 413 "Content
// Too Large" and 422 "Unprocessable Content", and 416 is "Range Not
// Satisfiable" everywhere but in Go ("Requested Range Not Satisfiable").
// "Payload", "Too", "Large" are then names no document mentions (the
// documents write PayloadTooLargeError, "request entity too large"), the
// very refusal 17b606c wrote the rule against ("no document mentions
// “Entity”").
//
// A correct implementation takes the words of the phrase that follows the
// status code as its reason, whichever registered name the server uses,
// and probes none of them; the names beside it (Express, FastAPI) stay
// probed.
func TestHReview29StatusPhrasesAsOtherServersWriteThem(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		question    string
		names, none []string
	}{
		{"Posting a big JSON body to my Express app fails with 413 Payload Too Large, how do I raise the limit?",
			[]string{"Express"}, []string{"Payload", "Too", "Large"}},
		{"Uploading a file to FastAPI fails with 413 Content Too Large", []string{"FastAPI"}, []string{"Content", "Too", "Large"}},
		{"Why does the server answer 416 Range Not Satisfiable for my download?", nil, []string{"Range", "Not", "Satisfiable"}},
	} {
		var got []string
		for _, p := range probeWords(c.question) {
			got = append(got, p.word)
		}
		for _, w := range c.names {
			if !slices.Contains(got, w) {
				t.Errorf("%q: probes %q lack the name %q", c.question, got, w)
			}
		}
		for _, w := range c.none {
			if slices.Contains(got, w) {
				t.Errorf("%q: probes %q hold %q, a word of the status code's reason", c.question, got, w)
			}
		}
	}
}
