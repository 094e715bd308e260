package answer

import (
	"strings"
	"testing"
)

// TestWordAmongAnnouncedEntriesIsQuoted: the one-line entries a sentence
// announces ("QUIC libraries we are experimenting with:" above "ngtcp2",
// "quiche" and "msh3 (with msquic)") are quoted together; a plain word
// among them is an entry, not a caption to leave out (libcurl's answer
// listed ngtcp2 and msh3 without quiche). A capitalised word after an
// example ("Note") still labels what follows.
func TestWordAmongAnnouncedEntriesIsQuoted(t *testing.T) {
	t.Parallel()
	content := "QUIC libraries\n\nQUIC libraries we are experimenting with:\n\nngtcp2\n\nquiche\n\nmsh3 (with msquic)\n\nHTTP/3 support is considered experimental until further notice."
	r := Extractive("Which QUIC libraries can the tool be built with?", []Source{{N: 1, Title: "HTTP3", HeadingPath: "HTTP3 > QUIC libraries", Content: content}}, 3)
	for _, lib := range []string{"ngtcp2", "quiche", "msh3"} {
		if !strings.Contains(r.Answer, lib) {
			t.Errorf("answer %q lacks %s", r.Answer, lib)
		}
	}
	us := parseUnits("To restart the server, run:\n\nservice mailer restart\n\nNote\n\nThe queue is kept.", "")
	for _, u := range us {
		if u.kind == unitCode && strings.Contains(u.text, "Note") {
			t.Errorf("the label after the example is quoted as part of it: %q", u.text)
		}
	}
}
