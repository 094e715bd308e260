package search

import (
	"slices"
	"testing"
)

// TestStatusPhrasesAreNoNames (h-trial36): an HTTP status line's reason
// ("413 Request Entity Too Large") and a title-cased phrase holding "Not"
// or "Too" ("Method Not Allowed") are capitalised by their style, not
// because they name something: "Uploading a 5 MB file … fails with 413
// Request Entity Too Large" was refused as "no document mentions
// “Entity”", over documents that write HTTPRequestEntityTooLarge. Names
// beside such a phrase, and capitalised words outside one, are still
// probed.
func TestStatusPhrasesAreNoNames(t *testing.T) {
	for _, c := range []struct {
		question    string
		names, none []string
	}{
		// ("5 MB" is a quantity, no name: TestQuantityUnitIsNoName.)
		{"Uploading a 5 MB file to my Aiohttp server fails with 413 Request Entity Too Large, how do I allow bigger bodies?",
			[]string{"Aiohttp"}, []string{"Request", "Entity", "Too", "Large", "MB"}},
		{"Why does my Flask route answer 405 Method Not Allowed for POST?", []string{"Flask", "POST"}, []string{"Method", "Not", "Allowed"}},
		{"The proxy returns Too Many Requests when Kafka is slow", []string{"Kafka"}, []string{"Too", "Many", "Requests"}},
		{"Behind Nginx I get 502 Bad Gateway from Gunicorn", []string{"Nginx", "Gunicorn"}, []string{"Bad", "Gateway"}},
		// No code and no "Not"/"Too": the capitals may be names.
		{"How do I connect Apache Kafka to the Schema Registry?", []string{"Apache", "Kafka", "Schema", "Registry"}, nil},
		// A number that is no status code before the words.
		{"Is version 2.413 Request Tracker compatible?", []string{"Request", "Tracker"}, nil},
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
				t.Errorf("%q: probes %q hold %q, a word of a status phrase", c.question, got, w)
			}
		}
	}
}
