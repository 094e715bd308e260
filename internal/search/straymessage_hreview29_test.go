package search

import (
	"testing"

	"github.com/google/uuid"
)

// TestHReview29StrayNameAfterAPastedMessage: messageParams takes every
// word after the exception's "Class: " for the pasted message's text, to
// the end of the question, and since 17b606c strayName passes over all
// of them. But a pasted line is usually followed by the asker's own
// account on the next line ("… It only happens behind Cloudflare."),
// whose names are the asker's, not the library's: "Cloudflare" there is
// the question's rarest word, written by some document and by none of
// the passages found, exactly the stray name the rule exists for, and it
// is no longer reported — the same name in the same sentence without the
// pasted line above it is.
//
// A correct implementation takes the message's text to its line's end
// (the pasted line), and treats the names of the asker's own sentences
// after it as names of the asker's.
func TestHReview29StrayNameAfterAPastedMessage(t *testing.T) {
	t.Parallel()
	results := []Result{{ChunkID: uuid.New(), Title: "Client exceptions", HeadingPath: "Client Reference > Client exceptions",
		Content: "exception aiohttp.ContentTypeError: invalid content type. Raised by ClientResponse.json() when the response's content type is not JSON."}}
	idf := map[string]float64{"aiohttp": 0.3, "contenttypeerror": 1.5, "decod": 1.2, "json": 0.8, "unexpect": 1.4, "mimetyp": 1.6,
		"happen": 0.5, "cloudflar": 3.0}
	const own = "It only happens when the API is behind Cloudflare."
	legs := strayLegs(own, idf)
	if got := strayName(legs, results, messageParams(own, legs)); got != "Cloudflare" {
		t.Fatalf("control, the asker's sentence alone: strayName = %q, want \"Cloudflare\"", got)
	}
	const pasted = "aiohttp.client_exceptions.ContentTypeError: 0, message='Attempt to decode JSON with unexpected mimetype: text/html'\n" + own
	legs = strayLegs(pasted, idf)
	if got := strayName(legs, results, messageParams(pasted, legs)); got != "Cloudflare" {
		t.Errorf("pasted line, then the asker's sentence: strayName = %q, want \"Cloudflare\": it is the asker's name, not the message's", got)
	}
}
