package answer

import (
	"strings"
	"testing"
)

// TestAnswerDoesNotEndOnAnUnkeptAnnouncement: a passage whose last
// sentence announces code too long to quote with it ("Typical examples
// (use only one):") ends before that sentence: Postfix's answer ended on
// the colon, promising examples it never gave.
func TestAnswerDoesNotEndOnAnUnkeptAnnouncement(t *testing.T) {
	t.Parallel()
	var code strings.Builder
	for i := 0; i < 40; i++ {
		code.WriteString("    mailbox_transport = lmtp:unix:/var/run/store/socket-" + strings.Repeat("x", 70) + "\n")
	}
	content := "Notes:\n\n" +
		"- Line 2: With delivery to an external mailbox store, the mailbox_transport parameter usually names the LMTP client, or a master.cf entry that runs the store's own delivery program. Typical examples (use only one):\n\n" +
		code.String() + "\n" +
		"- Line 3: The mailbox_domains setting names the domains delivered through mailbox_transport.\n"
	r := Extractive("What does the mailbox_transport parameter name for an external mailbox store?", []Source{{N: 1, Title: "Hosting",
		HeadingPath: "Hosting > External mailbox store", Content: content, Code: []Span{{Start: strings.Index(content, "    mailbox_transport"), End: strings.Index(content, "\n- Line 3")}}}}, 3)
	if !strings.Contains(r.Answer, "LMTP client") || strings.Contains(r.Answer, "Typical examples") && !strings.Contains(r.Answer, "lmtp:unix") {
		t.Errorf("answer %q: want the item's statement, not an announcement of code it leaves out", r.Answer)
	}
}

// TestAnnouncementThatAnswersIsKept: an announcing sentence that says
// what the rest of the passage does not ("Set the MAX_BODY_BYTES config
// key …, as in this line:") stays even when its code does not fit.
func TestAnnouncementThatAnswersIsKept(t *testing.T) {
	t.Parallel()
	var code strings.Builder
	for i := 0; i < 30; i++ {
		code.WriteString("    app.config['MAX_BODY_BYTES'] = 16 * 1000 * 1000  # " + strings.Repeat("y", 70) + "\n")
	}
	content := "Limiting uploads\n\nThe framework can limit the size of incoming request data. Set the MAX_BODY_BYTES config key to the largest number of bytes you accept, as in this line:\n\n" + code.String()
	r := Extractive("How do I limit upload size?", []Source{{N: 1, Title: "Uploads", HeadingPath: "Uploads > Limiting uploads", Content: content,
		Code: []Span{{Start: strings.Index(content, "    app.config"), End: len(content)}}}}, 3)
	if !strings.Contains(r.Answer, "MAX_BODY_BYTES") {
		t.Errorf("answer %q: want the sentence naming the setting", r.Answer)
	}
}
