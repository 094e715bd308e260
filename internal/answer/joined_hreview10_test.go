package answer

import (
	"slices"
	"strings"
	"testing"
)

// TestHR10JoinedPairsDoNotMakeAntonyms: joinedPairs joins a stop word and
// the next word ("log in": login), so "in active" becomes "inactive" (and
// "in valid", "in secure", "in complete", "a part" their opposites). When a
// source holds the joined word, questionTerms adds it, and the extractive
// answer to "How do I list the connections in active use?" quotes
// "Inactive connections are closed …", which the same words not adjacent
// ("that are active in use") do not bring.
func TestHR10JoinedPairsDoNotMakeAntonyms(t *testing.T) {
	t.Parallel()
	src := []Source{
		{N: 1, Content: "# Connections\n\nInactive connections are closed by the server after the idle timeout. The timeout is set per database."},
		{N: 2, Content: "# Monitoring\n\nThe pg_stat_activity view lists the connections in use, one row per server process, with what each one is doing."},
	}
	const q = "How do I list the connections in active use?"
	docs := [][]unit{parseUnits(src[0].Content, ""), parseUnits(src[1].Content, "")}
	if qt := questionTerms(q, docs); slices.Contains(qt, stem("inactive")) {
		t.Errorf("questionTerms(%q) = %q: holds %q, the opposite of what the question asks", q, qt, stem("inactive"))
	}
	if r := Extractive(q, src, 3); strings.Contains(r.Answer, "Inactive connections") {
		t.Errorf("answer to %q quotes the inactive connections' sentence:\n%s", q, r.Answer)
	}
}
