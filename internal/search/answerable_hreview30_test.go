package search

import "testing"

// TestHR30JoinedNumberAfterCurlyApostrophe: joinedNumber reads the byte
// after the number as a rune, so the first byte of a multi-byte character
// (0xE2 of "’", "…", "—"; 0xC2 of a no-break space) counts as a letter
// ('â', 'Â') and the name's joined form is lost. "RFC 5322’s grammar",
// typed with the curly apostrophe phones and word processors insert, must
// give rfc5322 exactly as "RFC 5322's grammar" does.
func TestHR30JoinedNumberAfterCurlyApostrophe(t *testing.T) {
	for _, q := range []string{
		"Does the email format follow RFC 5322’s grammar?",
		"Are dates checked against ISO 8601… or only RFC 3339?",
		"Does it validate full RFC 5322—including quoted local parts?",
	} {
		w := "RFC"
		want := "rfc5322"
		if q[:3] == "Are" {
			w, want = "ISO", "iso8601"
		}
		if got := joinedNumber(q, w); got != want {
			t.Errorf("joinedNumber(%q, %q) = %q, want %q (a punctuation mark after the number ends it as an ASCII one does)", q, w, got, want)
		}
	}
}

// TestHR30JoinedNumberLaterOccurrence: joinedNumber looks only at the
// first "RFC " of the question; when the asker names the RFC before its
// number ("Which RFC …, RFC 5322 or …?") the numbered occurrence is never
// seen, and "RFC" stays missing over pages writing rfc5322 — the very
// refusal joinedNumber was written to prevent. Any occurrence followed by
// a number should give the joined form.
func TestHR30JoinedNumberLaterOccurrence(t *testing.T) {
	q := "Which RFC does the email format follow, RFC 5322?"
	if got := joinedNumber(q, "RFC"); got != "rfc5322" {
		t.Errorf("joinedNumber(%q, RFC) = %q, want rfc5322", q, got)
	}
}

// TestHR30NamedMissingAskersOwnFunction: namedMissing's comment says the
// asker's own objects are not counted, but askersOwn only knows "my",
// "our", "named", "called" within three words before. An asker introducing
// their own function, view or class ("I wrote a send_invoice function",
// "Our app has a send_invoice function") names an identifier no document
// can write; the question (why Celery's .delay() does not run it) is
// answerable, yet the confidence is capped at releaseCap (0.1), i.e.
// refused. Likewise a message pasted in the middle of a question
// ("… I get ImproperlyConfigured: The ACME_API_URL setting must not be
// empty") is the program's text about the asker's own setting.
func TestHR30NamedMissingAskersOwnFunction(t *testing.T) {
	for _, tc := range []struct{ q, w string }{
		{"I wrote a send_invoice function decorated with @shared_task; why does calling send_invoice.delay() never run it?", "send_invoice"},
		{"Our app has a send_invoice function decorated with @shared_task; why does calling it with delay() never run?", "send_invoice"},
		{"After deploying I get ImproperlyConfigured: The ACME_API_URL setting must not be empty. How do I set environment variables for settings?", "ACME_API_URL"},
	} {
		if namedMissing(tc.q, []string{tc.w}, messageParamsFor(tc.q)) {
			t.Errorf("%q: capped as a missing %s; it is the asker's own (want not capped)", tc.q, tc.w)
		}
	}
}

// messageParamsFor is what assess passes: messageParams needs the question
// to open with the class; these do not, so nil.
func messageParamsFor(q string) map[string]bool {
	head, _ := messageHead(q)
	if head == "" {
		return nil
	}
	return map[string]bool{}
}
