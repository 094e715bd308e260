package answer

import (
	"strings"
	"testing"
)

// TestReview56PurposeSharingACommonWord: a purpose ("If you want to rerun
// only the tests that failed …, you can use --lf") that shares only the
// corpus's commonest words (tests, run) with a how-question earns no
// instruction credit: the sentence that answers it (-n) leads (a review).
func TestReview56PurposeSharingACommonWord(t *testing.T) {
	t.Parallel()
	src := []Source{
		{N: 1, Title: "pytest", HeadingPath: "pytest > Cache", Content: "Cache: working with cross-testrun state\n\n" +
			"The plugin provides two command line options to rerun failures from the last pytest invocation. " +
			"If you want to rerun only the tests that failed in the last run, you can use the --lf option. " +
			"The --ff option runs the failures first and then the rest of the tests."},
		{N: 2, Title: "pytest-xdist", HeadingPath: "pytest-xdist > Distributing tests", Content: "Distributing tests\n\n" +
			"The pytest-xdist plugin extends pytest with new test execution modes. " +
			"Tests run in parallel across several worker processes when the -n option gives the number of workers, for example -n auto for one worker per CPU. " +
			"Each worker collects the full suite."},
	}
	q := "How do I run my tests in parallel?"
	r := Extractive(q, src, 0)
	n, lf := strings.Index(r.Answer, "-n option"), strings.Index(r.Answer, "--lf")
	if n < 0 || lf >= 0 && lf < n {
		t.Errorf("%s\nAnswer =\n%s\nwant the -n sentence first, not the --lf one", q, r.Answer)
	}
}

// TestReview56WantIsNoPurposeTerm: "want" is a term (terms keeps it), and
// every "If you want to …, you can …" sentence writes it: the wish is no
// part of the purpose, or a question saying "I want to …" would give any
// such sentence the instruction credit, whatever its purpose ("see more
// detail" for a question about proxies; a review).
func TestReview56WantIsNoPurposeTerm(t *testing.T) {
	t.Parallel()
	src := []Source{
		{N: 1, Title: "Logging", HeadingPath: "Guide > Logging", Content: "Logging\n\n" +
			"If you want to see more detail, you can set the log level to DEBUG. Log records go to standard error unless a handler is configured."},
		{N: 2, Title: "Proxies", HeadingPath: "Guide > Proxies", Content: "Proxies\n\n" +
			"Requests are sent through the proxy named by the HTTPS_PROXY environment variable, and the proxies argument overrides it per request."},
	}
	q := "How do I send requests through a proxy? I want to inspect the traffic."
	r := Extractive(q, src, 0)
	if !strings.HasPrefix(r.Answer, "Requests are sent through the proxy") {
		t.Errorf("%s\nAnswer =\n%s\nwant the proxy sentence first, not the logging one", q, r.Answer)
	}
}

// TestReview56HowLongAsksForALength: "how long" asks for a length as often
// as for a duration ("How long must a password be?", "How long can a key
// be?"): for those, a sentence about expiry earns no duration credit and
// the one giving the length is quoted (a review).
func TestReview56HowLongAsksForALength(t *testing.T) {
	t.Parallel()
	policy := []Source{{N: 1, Title: "Password policy", HeadingPath: "Admin guide > Password policy", Content: "Password policy\n\n" +
		"A password must have at least 12 characters and may hold any printable character. Passphrases of several words are encouraged.\n\n" +
		"Passwords expire after 90 days, and users are reminded to change their password 14 days before it expires."}}
	q := "How long must a password be?"
	if r := Extractive(q, policy, 0); !strings.Contains(r.Answer, "at least 12 characters") {
		t.Errorf("%s\nAnswer =\n%s\nwant the sentence giving the length (12 characters)", q, r.Answer)
	}
	keys := []Source{
		{N: 1, Title: "Keys", HeadingPath: "Redis > Keys", Content: "Keys\n\n" +
			"The maximum allowed key size is 512 MB, though very large keys are a bad idea memory-wise."},
		{N: 2, Title: "Key expiration", HeadingPath: "Redis > Key expiration", Content: "Key expiration\n\n" +
			"A key with a timeout is deleted after the timeout; EXPIRE mykey 5 deletes the key after 5 seconds."},
	}
	q = "How long can a key be?"
	if r := Extractive(q, keys, 0); !strings.HasPrefix(r.Answer, "The maximum allowed key size is 512 MB") {
		t.Errorf("%s\nAnswer =\n%s\nwant the key size first, not the expiry", q, r.Answer)
	}
}

// TestReview56DashAfterParenthesisIsNoList: in hard-wrapped prose a line
// may open with a spaced hyphen used as a dash, after a line ending in a
// parenthesis; read as a list, the sentence was cut in two and the answer
// ended at the parenthesis, without its second condition (a review).
func TestReview56DashAfterParenthesisIsNoList(t *testing.T) {
	t.Parallel()
	content := "Cache eviction\n\nThe cache holds at most maxsize entries. Entries are removed when the cache is full (the least recently used go first)\n" +
		"- or when their time to live runs out, whichever comes first. A removed entry is computed again on its next use."
	q := "When are entries removed from the cache?"
	r := Extractive(q, []Source{{N: 1, Title: "Cache", HeadingPath: "Guide > Cache eviction", Content: content}}, 0)
	if !strings.Contains(r.Answer, "or when their time to live runs out") {
		t.Errorf("%s\nAnswer =\n%s\nwant the whole sentence, through \"or when their time to live runs out\"", q, r.Answer)
	}
}
