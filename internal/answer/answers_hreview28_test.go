package answer

import (
	"slices"
	"strings"
	"testing"
)

// TestHReview28ListLabelIsNoFieldListLabel: fieldListLabel takes any line
// of at most three words ending with ":" above list items for a Sphinx
// field list's "Parameters:" and drops it from the units. But "Supported
// databases:", "System requirements:" or "Known limitations:" above a
// list is the only place the list says what it lists: dropped, the items
// ("PostgreSQL 12 or later", "4 GB of memory") share no word with the
// question, and "Which databases are supported?" is answered with an
// unrelated sentence of the section. Before d55a986 the answer was the
// labelled list.
func TestHReview28ListLabelIsNoFieldListLabel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		question, content string
		want              []string
	}{
		{"Which databases are supported?",
			"Installation\n\nThe server keeps its data in a relational database that you set up before the first start.\n\n" +
				"Supported databases:\n- PostgreSQL 12 or later\n- MySQL 8.0\n- SQLite 3.35\n\nThe connection string goes into the configuration file.",
			[]string{"PostgreSQL", "MySQL", "SQLite"}},
		{"What are the system requirements?",
			"Installing\n\nDownload the package for your platform.\n\n" +
				"System requirements:\n- 4 GB of memory\n- A 64-bit processor\n- 10 GB of free disk space\n\nRun the installer as an administrator.",
			[]string{"4 GB of memory", "10 GB of free disk space"}},
	} {
		src := []Source{{N: 1, Title: "Guide", HeadingPath: "Guide", Content: c.content}}
		got := Extractive(c.question, src, 3).Answer
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q:\n%s\nwant the labelled list (%q)", c.question, got, w)
			}
		}
	}
}

// TestHReview28QuantityQuestionWhoseValueIsAName: asksQuantity counts
// "What is the default … level / time / value …?" as asking for a number,
// and Extractive refuses it when the quoted prose holds no digit, number
// word or literal. But a default log level is WARNING, a default time
// zone UTC, a separator's default value a comma, a pool's default size
// "as many … as the machine has CPU cores": the passage answering
// the question is found and the answer is refused as not_in_sources with
// "the passages found give no number, which the question asks for".
func TestHReview28QuantityQuestionWhoseValueIsAName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ question, content, want string }{
		{"What is the default log level?",
			"The logger writes messages at or above its level. The default level is WARNING, so info and debug messages are dropped unless you lower it.",
			"WARNING"},
		{"What is the default time zone of the scheduler?",
			"The scheduler reads the time zone from its settings. Its default time zone is UTC, whatever the host is set to.",
			"UTC"},
		{"What is the default value of the separator?",
			"The separator splits the fields of a record. Its default value is a comma, as in CSV files.",
			"comma"},
		{"What is the default number of worker processes?",
			"The pool starts worker processes when the service starts. By default it starts as many worker processes as the machine has CPU cores.",
			"CPU cores"},
	} {
		src := []Source{{N: 1, Title: "Guide", HeadingPath: "Guide > Settings", Content: c.content}}
		r := Extractive(c.question, src, 3)
		if r.Refused || !strings.Contains(r.Answer, c.want) {
			t.Errorf("%q: refused %v (%q), answer %q; want the passage giving %q", c.question, r.Refused, r.Reason, r.Answer, c.want)
		}
	}
}

// TestHReview28QuantityGivenInWords: givesQuantity knows digits, "one" to
// "twelve", "no limit" and a few literals, so a passage that gives the
// number as "twice" or says there is "no hard limit" / "no size limit"
// counts as giving none, and a question it answers is refused.
func TestHReview28QuantityGivenInWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ question, content, want string }{
		{"How many times does the client retry a request?",
			"The client retries a failed request twice before it raises ConnectionError. Requests that were already sent are never retried.",
			"twice"},
		{"What is the maximum size of an uploaded file?",
			"The server puts no hard limit on the size of an uploaded file; the disk it writes to is what bounds it.",
			"no hard limit"},
	} {
		src := []Source{{N: 1, Title: "Guide", HeadingPath: "Guide > Limits", Content: c.content}}
		r := Extractive(c.question, src, 3)
		if r.Refused || !strings.Contains(r.Answer, c.want) {
			t.Errorf("%q: refused %v (%q), answer %q; want the passage giving %q", c.question, r.Refused, r.Reason, r.Answer, c.want)
		}
	}
}

// TestHReview28GoMethodSignatureDefinesItsName: signatureName reads a
// signature's first word followed by "(" as the name it defines. A Go
// method's signature opens with its receiver, "func (c *Client)
// CloseIdleConnections()", so the method's entry defines "func" (before
// d55a986 it defined every word of the signature, the method's name
// among them). "What does Client.CloseIdleConnections do?" is then
// answered with a prose sentence that mentions the method in passing, not
// with the method's own entry.
func TestHReview28GoMethodSignatureDefinesItsName(t *testing.T) {
	t.Parallel()
	content := "type Client\n\n" +
		"A Client is an HTTP client. Its Transport keeps connections for reuse; a program that is done with a Client can call CloseIdleConnections on it, and the Transport closes idle connections after IdleConnTimeout.\n\n" +
		"func (c *Client) Do(req *Request) (*Response, error)\nDo sends an HTTP request and returns an HTTP response, following policy (such as redirects, cookies, auth) as configured on the client.\n\n" +
		"func (c *Client) CloseIdleConnections()\nCloses any connections on its Transport which were previously connected from previous requests but are now sitting idle in a keep-alive state. It does not interrupt connections in use.\n"
	for _, u := range parseUnits(content, "net/http > Client") {
		if strings.HasPrefix(u.text, "func (c *Client) CloseIdleConnections()") && !slices.Contains(u.defines, "closeidleconnection") {
			t.Errorf("the method's entry defines %q; want the method's name", u.defines)
		}
	}
	src := []Source{{N: 1, Title: "net/http", HeadingPath: "net/http > Client", Content: content}}
	got := Extractive("What does Client.CloseIdleConnections do?", src, 3).Answer
	if !strings.Contains(got, "sitting idle in a keep-alive state") {
		t.Errorf("answer:\n%s\nwant CloseIdleConnections' own entry", got)
	}
}

// TestHReview28FocusNamedAfterTheNoun: focusTerms takes the word after
// "parameter", "option" … as the focus only when it has "_" or starts
// with "-", so "the parameter heartbeat of ChannelResponse" (the word
// order of "the parameter max_frame") names no focus; the class's
// signature, which leads the entry, wins over heartbeat's item, and the
// question about the parameter is answered with the class's description —
// what "the heartbeat parameter of ChannelResponse" no longer gets.
func TestHReview28FocusNamedAfterTheNoun(t *testing.T) {
	t.Parallel()
	content := "Streaming responses\n\n" +
		"class tinyweb.ChannelResponse(*, timeout=10.0, autoclose=True, heartbeat=None, compress=True, max_frame=4194304)\n" +
		"Class for handling server-side channels, inherited from BaseResponse.\n\n" +
		"After starting the response you cannot write to it directly; use the channel's send methods.\n\n" +
		"Parameters:\n" +
		"- autoclose (bool) – Close the channel automatically when the peer closes it.\n" +
		"- heartbeat (float) – Send a ping every heartbeat seconds and close the channel when no pong comes back. The timer restarts on any data received.\n" +
		"- compress (bool) – Enable per-frame compression.\n" +
		"- max_frame (int) – Largest frame accepted, in bytes; 0 disables the limit.\n"
	src := []Source{{N: 1, Title: "Server Reference", HeadingPath: "Server Reference > Response classes", Content: content}}
	for _, q := range []string{
		"What does the parameter heartbeat of ChannelResponse do?",
		"What does the option autoclose of ChannelResponse do?",
	} {
		got := Extractive(q, src, 3).Answer
		if strings.Contains(got, "Class for handling") || !strings.Contains(got, "Close the channel automatically") && !strings.Contains(got, "Send a ping") {
			t.Errorf("%q:\n%s\nwant the parameter's item, not the class's description", q, got)
		}
	}
}
