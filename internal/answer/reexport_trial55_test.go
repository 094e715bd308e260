package answer

import (
	"strings"
	"testing"
)

// TestReexportedEntryQuotedOnce: an API reference documents a function
// again under each module that exports it; the answer quotes its
// description once (humanfriendly's concatenate was quoted three times,
// a held-out trial), and the room goes to what else the sources say.
func TestReexportedEntryQuotedOnce(t *testing.T) {
	entry := func(module string) string {
		return module + ".concatenate(items, conjunction='and', serial_comma=False): Concatenate a list of items in a human friendly way."
	}
	sources := []Source{
		{N: 1, Content: entry("humanfriendly"), HeadingPath: "API documentation > humanfriendly"},
		{N: 2, Content: entry("humanfriendly.terminal"), HeadingPath: "API documentation > humanfriendly.terminal"},
		{N: 3, Content: entry("humanfriendly.text"), HeadingPath: "API documentation > humanfriendly.text"},
	}
	r := Extractive("How do I concatenate a list of items in a human friendly way?", sources, 3)
	if r.Refused {
		t.Fatalf("refused: %+v", r)
	}
	if n := strings.Count(r.Answer, "Concatenate a list of items"); n != 1 {
		t.Errorf("the description is quoted %d times, want once:\n%s", n, r.Answer)
	}
}

// TestDottedFilesAreNoRepeats: only a signature's dotted name counts by
// its last part; files named alike are different things.
func TestDottedFilesAreNoRepeats(t *testing.T) {
	if repeats([]string{"The pg_hba.conf file is read on start-up and when the server is reloaded."}, "The pg_ident.conf file is read on start-up and when the server is reloaded.") {
		t.Error("pg_ident.conf's sentence read as a repeat of pg_hba.conf's")
	}
	if !repeats([]string{"frob.format_size(num_bytes): Format a byte count."}, "frob.cli.format_size(num_bytes): Format a byte count.") {
		t.Error("a re-exported signature read as new")
	}
}
