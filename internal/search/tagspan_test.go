package search_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestReprNamesAreSearchable: a name a document writes only inside a span
// PostgreSQL's parser takes for an XML tag (a Python repr, a placeholder)
// is in the tenant's vocabulary: a pasted exception name finds the page
// that writes it and is not named missing. Before, the parser dropped the
// span whole, and a question opening with the exception was refused with
// "no document mentions “jinja2.exceptions.TemplateSyntaxError”".
func TestReprNamesAreSearchable(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"ext.md": "# Extension API\n\nCall fail(msg, lineno=None, exc=<class 'jinja2.exceptions.TemplateSyntaxError'>) " +
			"to raise an error from inside an extension's parser.",
		"queues.md": "# Purging\n\nTo purge one queue run celery amqp queue.purge <queue name> from a shell.",
		"loops.md":  "# Loop controls\n\nWith the loop controls extension, break and continue work inside for loops.",
	}
	tt, s := corpusTenant(t, "reprs", "english", docs)
	ctx := context.Background()
	for q, want := range map[string]string{
		"jinja2.exceptions.TemplateSyntaxError: where is it raised from?": "ext.md",
		"What do I pass as the queue name to purge it?":                   "queues.md",
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if len(resp.MissingTerms) > 0 {
			t.Errorf("%q: missing %q, want none", q, resp.MissingTerms)
		}
		if len(resp.Results) == 0 || !strings.HasSuffix(resp.Results[0].SourceURI, want) {
			t.Errorf("%q: results %v, want %s first", q, resp.Results, want)
		}
	}
}

// TestOperatorQuestionsFindTheirOperator: a question about an operator
// finds the chunk that writes it. PostgreSQL's parser reads no symbol as
// a word, so "What does the @> operator do?" searched for "operator"
// alone, and a page saying "operator" most came first.
func TestOperatorQuestionsFindTheirOperator(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"regex.md": "# Pattern matching\n\ntext ~ text → boolean: String matches regular expression, case sensitively.\n\n" +
			"text ~* text → boolean: String matches regular expression, case insensitively.",
		"jsonb.md": "# JSON operators\n\njsonb @> jsonb → boolean: Does the first JSON value contain the second?",
		"opclass.md": "# Operator classes\n\nAn operator class names the operators an index method uses. " +
			"Each operator of an operator class has a strategy number; the operator family groups operator classes.",
	}
	for i, topic := range []string{"backups", "replication", "vacuum", "indexes", "roles", "locks", "logging", "extensions"} {
		docs[fmt.Sprintf("filler%d.md", i)] = fmt.Sprintf("# About %s\n\nThis page explains %s: how to set them up, "+
			"which settings matter and what to watch for when %s go wrong.", topic, topic, topic)
	}
	tt, s := corpusTenant(t, "operators", "english", docs)
	ctx := context.Background()
	for q, want := range map[string]string{
		"What does the @> operator do?": "jsonb.md",
	} {
		wantFirst(t, ctx, s, tt, q, want)
	}
}

// TestPastedMessageOpeningWithItsException: a question that pastes a
// message opening with its exception's class ("SSLError: hostname
// 'example.com' doesn't match either of '*.example.net'") probes the class
// although it opens the question, so a page writing it makes the
// message's own values (the asker's host names) no missing names. Before,
// the class was never probed and "example.net" refused the question
// (h-trial32).
func TestPastedMessageOpeningWithItsException(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"advanced.md": "# SSL Cert Verification\n\nRequests verifies SSL certificates for HTTPS requests. " +
			"Requests will throw a SSLError if it is unable to verify the certificate, for example when the hostname does not match it.",
		"quickstart.md": "# Quickstart\n\nMake a request with requests.get and read the response text.",
	}
	tt, s := corpusTenant(t, "pastedhead", "english", docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "SSLError: hostname 'example.com' doesn't match either of '*.example.net' - what does this error mean?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Signals.MissingNames != 0 {
		t.Errorf("the message's own host names count as missing names: %d (missing_terms %q)", resp.Signals.MissingNames, resp.MissingTerms)
	}
}
