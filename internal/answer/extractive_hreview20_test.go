package answer

import (
	"strings"
	"testing"
)

// quotable now requires wordy (70% letters), so a sentence that states
// a value can no longer anchor an answer: the setting with its number
// ("Set MAX_CONTENT_LENGTH = 16 * 1024 * 1024 …", 65% letters; also
// "The default request timeout is 30s (30000 ms).", "Version 2.0.1 was
// released on 2023-04-05.", "… listens on 127.0.0.1:5000.", all under
// 70%). Those are exactly the sentences that answer "how do I limit…",
// "what is the default…", "when was…". wordy
// was written to keep a dump ("==== sqlca ==== sqlcode: -400 …") out of
// the supporting sentences of an answer that already has its passage; as
// a bar on the best passage it makes the answerer quote the wrong
// sentence: "Larger requests are rejected with a 413 status code." is no
// answer to how to limit the upload size.
func TestSentenceStatingAValueIsQuotable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		question, heading, content, want string
	}{
		{"How do I limit the upload size?", "Uploads > Limiting size",
			"Limiting size\n\nSet MAX_CONTENT_LENGTH = 16 * 1024 * 1024 to limit uploads to 16 MB.\n\n" +
				"Larger requests are rejected with a 413 status code.",
			"MAX_CONTENT_LENGTH = 16 * 1024 * 1024"},
	} {
		for _, s := range strings.Split(tc.content, "\n\n") {
			if strings.Contains(s, tc.want) && !quotable(unit{kind: unitSentence, text: s}) {
				t.Errorf("%q is not quotable", s)
			}
		}
		r := Extractive(tc.question, []Source{{N: 1, HeadingPath: tc.heading, Content: tc.content}}, 3)
		if !strings.Contains(r.Answer, tc.want) {
			t.Errorf("answer to %q does not quote %q:\n%s", tc.question, tc.want, r.Answer)
		}
	}
}

// The bare version note is kept from opening an answer unless asksWhen
// matches the question, but asksWhen matches "when" as a conjunction
// ("what does X do when Y …", "why do I get X when …"), the commonest
// form of a question about behaviour. The Werkzeug case the change was
// made for, asked that way, still opens with "Changed in version 0.10",
// which says nothing of what the reloader does.
func TestVersionNoteDoesNotOpenAnAnswerForWhenAsAConjunction(t *testing.T) {
	t.Parallel()
	content := "Reloader\n\nChanged in version 0.10.\n\n" +
		"The Werkzeug reloader constantly monitors modules and paths of your web application, and restarts the server if any of the observed files change."
	src := []Source{{N: 1, HeadingPath: "Serving > Reloader", Content: content}}
	r := Extractive("What does the reloader do when a file changes?", src, 3)
	if strings.HasPrefix(r.Answer, "Changed in version") || !strings.Contains(r.Answer, "constantly monitors") {
		t.Fatalf("answer opens with the version note:\n%s", r.Answer)
	}
}
