package answer

import (
	"strings"
	"testing"
)

// TestOnlySolutionFoundIsTheRemedy: a problem's section that states the
// symptom, shows the error, explains it and then gives "the only solution
// I have found" is quoted down to that solution (pexpect's "Controlling
// SSH on Solaris", a held-out trial: the answer ended on the error).
func TestOnlySolutionFoundIsTheRemedy(t *testing.T) {
	content := "Frob does not yet work perfectly on Solaris. One common problem is that SSH sometimes will not allow TTY password authentication. " +
		"For example, you may expect SSH to ask you for a password using code like this:\n\n" +
		"    child = frob.spawn('ssh user@example.com')\n    child.expect('password')\n    child.sendline('mypassword')\n\n" +
		"You may see the following error come back from a spawned child SSH:\n\n" +
		"    Permission denied (publickey,keyboard-interactive).\n\n" +
		"This means that SSH thinks it can’t access the TTY to ask you for your password. " +
		"The only solution I have found is to use public key authentication with SSH. This bypasses the need for a password."
	r := Extractive("Scripting an ssh password login on Solaris fails with Permission denied (publickey,keyboard-interactive); what is the workaround?",
		[]Source{{N: 1, Content: content, HeadingPath: "Common problems > Controlling SSH on Solaris"}}, 3)
	if r.Refused || !strings.Contains(r.Answer, "public key authentication") {
		t.Errorf("answer:\n%s\nwant it to reach the only solution, public key authentication", r.Answer)
	}
}

// TestFullStopInsideAQuotationEndsNoSentence: a quoted message holding a
// full stop ("“End Of File (EOF) in read(). Exception style platform.”")
// is one sentence; split, pexpect's answer cited half a message.
func TestFullStopInsideAQuotationEndsNoSentence(t *testing.T) {
	got := splitUnit("The two messages are “End Of File (EOF) in read(). Exception style platform.” and another. Then it stops.")
	want := []string{"The two messages are “End Of File (EOF) in read(). Exception style platform.” and another.", "Then it stops."}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("splitUnit = %q, want %q", got, want)
	}
	got = splitUnit(`He wrote "Stop. Go." and left. Then "stay" was read.`)
	if len(got) != 2 {
		t.Errorf("splitUnit = %q, want two sentences", got)
	}
}

// TestQuotedMessageIsExplained: a question quoting a message it calls one
// ("What does the error message '…' mean?") is answered past the page's
// list of messages, with what the page says of them (pexpect's EOF
// messages, a held-out trial: the answer was the list alone).
func TestQuotedMessageIsExplained(t *testing.T) {
	q := "What does the error message 'End Of File (EOF) in read(). Exception style platform.' mean?"
	content := "EOF\n\nNote that two flavors of EOF Exception may be thrown. They are virtually identical except for the message string. The two messages are:\n\n" +
		"- “End Of File (EOF) in read(). Exception style platform.”\n- “End Of File (EOF) in read(). Empty string style platform.”\n\n" +
		"Some UNIX platforms will throw an exception when you try to read from a file descriptor in the EOF state. " +
		"Other UNIX platforms instead quietly return an empty string to indicate that the EOF state has been reached."
	r := Extractive(q, []Source{{N: 1, Content: content, HeadingPath: "API Overview > Exceptions"}}, 3)
	if r.Refused || !strings.Contains(r.Answer, "Some UNIX platforms will throw an exception") {
		t.Errorf("answer:\n%s\nwant the explanation after the list of messages", r.Answer)
	}
}

// TestNeedStatedGoesOnToWhatMeetsIt: asked how, a passage ending on the
// need the question states goes on to what the section says meets it
// (configobj's SimpleVal, a held-out trial: the answer restated the
// asker's need and stopped).
func TestNeedStatedGoesOnToWhatMeetsIt(t *testing.T) {
	content := "SimpleVal\n\nYou may not need a full validation process, but still want to check if all the expected values are present.\n\n" +
		"Provided as part of the frob module is the SimpleVal object. This has a dummy test method that always passes.\n\n" +
		"Other validators are described in the validation chapter."
	r := Extractive("How can I only check that all expected keys are present, without checking their types?",
		[]Source{{N: 1, Content: content, HeadingPath: "Validation > SimpleVal"}}, 3)
	if r.Refused || !strings.Contains(r.Answer, "SimpleVal object") {
		t.Errorf("answer:\n%s\nwant it to go on to the SimpleVal object", r.Answer)
	}
}

// TestEllipticalAndTemporalBackReferences: "If there is, …" and "Before
// that happens, …" lean on the sentence before them (Logbook's answers
// opened with them, held-out trial); "Before installing, …" does not.
func TestEllipticalAndTemporalBackReferences(t *testing.T) {
	for s, want := range map[string]bool{
		"If there is, a new occurrence is logged.":           true,
		"If so, the record is dropped.":                      true,
		"If not, the handler is skipped.":                    true,
		"Before that happens, no processing takes place.":    true,
		"After this, the queue is flushed.":                  true,
		"If there is no route, the request fails.":           false,
		"Before installing, read the notes.":                 false,
		"Unlike the stdlib, Logbook has no logger registry.": false,
	} {
		if got := opensWithBackReference(s); got != want {
			t.Errorf("opensWithBackReference(%q) = %v, want %v", s, got, want)
		}
	}
}
