package answer

import (
	"strings"
	"testing"
)

// TestBackReferenceUnderCodeBringsTheCode: a passage opening with a
// back-reference right under a code block ("That is, an empty value.")
// refers to the code: it brings the code and the sentence announcing it.
// Postfix's answer to which setting turns the unknown-recipient check off
// opened "That is, an empty value." and never named the setting.
func TestBackReferenceUnderCodeBringsTheCode(t *testing.T) {
	t.Parallel()
	content := "Configuring recipient_lookup_maps in main.cf\n\n" +
		"The recipient_lookup_maps parameter specifies lookup tables with all names or addresses of local recipients. A recipient address is local when its domain matches $mydestination. If a local username or address is not listed in $recipient_lookup_maps, then the SMTP server will reject the address with \"User unknown in local recipient table\".\n\n" +
		"The default setting, shown below, assumes that you use the default local delivery agent, where recipients are either UNIX accounts or local aliases:\n\n" +
		"/etc/mailer/main.cf:\n    recipient_lookup_maps = proxy:unix:passwd.byname $alias_maps\n\n" +
		"To turn off unknown local recipient rejects by the SMTP server, specify:\n\n" +
		"/etc/mailer/main.cf:\n    recipient_lookup_maps =\n\n" +
		"That is, an empty value. With this setting, the SMTP server will not reject mail with \"User unknown in local recipient table\". Don't do this on systems that receive mail directly from the Internet.\n"
	r := Extractive("Mail to some valid users is rejected with 'User unknown in local recipient table'. Which setting controls that check?", []Source{{N: 1, Title: "Unknown recipients",
		HeadingPath: "Unknown recipients > Configuring recipient_lookup_maps in main.cf", Content: content}}, 3)
	if strings.HasPrefix(r.Answer, "That is") || !strings.Contains(r.Answer, "recipient_lookup_maps =") {
		t.Errorf("answer %q: want the code the back-reference refers to, and its announcement", r.Answer)
	}
}
