package search

import (
	"testing"

	"github.com/google/uuid"
)

// TestStrayNameLeavesAPastedMessagesWords (h-trial36): a pasted error line
// capitalises its message's first word ("message='Attempt to decode JSON
// …'"). That word is the library's, not a name the asker chose: the pages
// that explain the exception need not write it, and "the best passages do
// not mention “Attempt”" refused the line at 0.10 though its answer was
// the third source. The same word as a name of the asker's own, in a
// question that is no pasted message, is still a stray name.
func TestStrayNameLeavesAPastedMessagesWords(t *testing.T) {
	results := []Result{{ChunkID: uuid.New(), Title: "Client exceptions", HeadingPath: "Client Reference > Client exceptions",
		Content: "exception aiohttp.ContentTypeError: invalid content type. Raised by ClientResponse.json() when the response's content type is not JSON."}}
	idf := map[string]float64{"aiohttp": 0.3, "contenttypeerror": 1.5, "attempt": 3.0, "decod": 1.2, "json": 0.8, "unexpect": 1.4, "mimetyp": 1.6}
	const pasted = "aiohttp.client_exceptions.ContentTypeError: 0, message='Attempt to decode JSON with unexpected mimetype: text/html'"
	legs := strayLegs(pasted, idf)
	if got := strayName(legs, results, messageParams(pasted, legs)); got != "" {
		t.Errorf("pasted message: strayName = %q, want \"\": the message's first word is the library's", got)
	}
	const asked = "How does the Attempt helper decode JSON with an unexpected mimetype?"
	legs = strayLegs(asked, idf)
	if got := strayName(legs, results, messageParams(asked, legs)); got != "Attempt" {
		t.Errorf("asked in the asker's words: strayName = %q, want \"Attempt\"", got)
	}
}
