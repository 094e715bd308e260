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
