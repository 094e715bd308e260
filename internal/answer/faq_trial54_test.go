package answer

import (
	"strings"
	"testing"
)

// TestFAQQuestionOfSeveralSentencesIsATitle: an FAQ written as "Q: …"
// and "A: …" paragraphs, whose question runs to several sentences, is
// answered with the answer under the question that matches, not with the
// question itself (python-ldap's FAQ gave the asker their own problem
// back). A paragraph opening "Q:" with no answer after it stays prose.
func TestFAQQuestionOfSeveralSentencesIsATitle(t *testing.T) {
	t.Parallel()
	src := Source{N: 1, Title: "FAQ", HeadingPath: "FAQ > Usage",
		Content: "Usage\n\n" +
			"Q: Does it work with Python 3?\n\nA: Yes, from 3.0 on.\n\n" +
			"Q: My script bound to the directory server but a search operation results in the exception OPERATIONS_ERROR with the text “a successful bind must be completed”. The same search works from the command line. What's happening here?\n\n" +
			"A: When searching from the domain level, the server returns referrals for some objects. The client library chases them anonymously, which the server refuses.\n\n" +
			"So, the best thing to do is to switch referral chasing off.\n\n" +
			"Q: Why am I seeing a SUCCESS traceback as output?\n\nA: You are using one of the asynchronous calls."}
	r := Extractive("My search raises OPERATIONS_ERROR saying a successful bind must be completed, even though I bound. Why?", []Source{src}, 2)
	if !strings.Contains(r.Answer, "the server returns referrals") {
		t.Errorf("answer %q: want the answer under the matching question", r.Answer)
	}
	if strings.Contains(r.Answer, "My script bound") {
		t.Errorf("answer %q: quotes the FAQ's question", r.Answer)
	}
	plain := Source{N: 1, Title: "Notes", HeadingPath: "Notes",
		Content: "Notes\n\nQ: the queue's name. It names the queue the search's results are written to.\n\nThe results stay there for a day."}
	r = Extractive("What does Q name for search results?", []Source{plain}, 2)
	if !strings.Contains(r.Answer, "It names the queue the search's results are written to") {
		t.Errorf("answer %q: want the paragraph quoted as prose", r.Answer)
	}
}
