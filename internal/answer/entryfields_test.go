package answer

import (
	"strings"
	"testing"
)

// TestExtractiveEntryKeepsItsFields: a passage opening with an API entry's
// signature runs on into the entry's own "Parameters" field: cut there, a
// parameter list was quoted without the function it belongs to. The
// field's label without its colon ("Parameters" above its items, as some
// Sphinx themes render it) labels a field list as "Parameters:" does:
// each item is a parameter's own. It stops before the next entry's
// signature.
func TestExtractiveEntryKeepsItsFields(t *testing.T) {
	t.Parallel()
	entry := func(sig, does, params string) string {
		return sig + "\n" + does + "\n\nParameters\n- url – URL for the new Request object.\n" + params + "- **kwargs – Optional arguments that request takes.\n\nReturns\nResponse object\n\n"
	}
	content := entry("requests.head(url, **kwargs)", "Sends a HEAD request.", "") +
		entry("requests.post(url, data=None, json=None, **kwargs)", "Sends a POST request.",
			"- data – (optional) Dictionary, list of tuples, bytes, or file-like object to send in the body of the Request.\n- json – (optional) json data to send in the body of the Request.\n") +
		entry("requests.put(url, data=None, **kwargs)", "Sends a PUT request.", "- data – (optional) Dictionary, list of tuples, bytes, or file-like object to send in the body of the Request.\n")
	r := Extractive("How do I send a POST request with a JSON body?", []Source{{N: 1, HeadingPath: "Developer Interface > Main Interface", Content: content}}, 0)
	first, _, _ := strings.Cut(r.Answer, "\n\n")
	if !strings.HasPrefix(first, "requests.post(url, data=None, json=None, **kwargs): Sends a POST request [1].") || !strings.Contains(first, "- url – URL for the new Request object") {
		t.Errorf("Answer =\n%s\nwant requests.post's signature with its parameters", r.Answer)
	}
	if strings.Contains(first, "requests.put") {
		t.Errorf("Answer =\n%s\nruns into the next entry", r.Answer)
	}
}
