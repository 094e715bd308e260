package answer

import (
	"strings"
	"testing"
)

// TestReview56bColonlessLabelKeepsWhatItLists: a line that is only
// "Fields", "Variables", "Attributes" or "Arguments" (no colon) above list
// items, outside a signature's entry, is no docstring field list's label:
// it is the only place that says what the list lists (a form's fields, a
// CLI's environment variables, a catalogue's product attributes, a
// command's arguments; plain text, or HTML's <dt>Fields</dt><dd><ul>…,
// which extract renders as the label directly above the items). Dropped
// as a field list's label, the items shared no word with the question and
// the answer was a sentence beside the list (a review).
func TestReview56bColonlessLabelKeepsWhatItLists(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ question, path, content, want string }{
		{"What fields does the signup form have?", "Guide > Signup form",
			"Signup form\n\nThe signup form collects what we need to create an account. Nothing else is asked until the first order.\n\n" +
				"Fields\n- Name\n- Email address\n- Password, at least 12 characters\n\n" +
				"The form is sent over HTTPS and the password is never stored in clear.",
			"Email address"},
		{"Which environment variables does the CLI read?", "README > Configuration",
			"Configuration\n\nThe CLI reads its settings from a file and from the environment.\n\n" +
				"Variables\n- MYCLI_HOME – where the CLI keeps its state\n- MYCLI_TOKEN – the API token used for every request\n\n" +
				"A variable set in the environment wins over the file.",
			"MYCLI_TOKEN"},
		{"What attributes does a product have in the catalog?", "Catalog > Products",
			"Products\n\nEvery product in the catalog is a record the storefront shows on its page.\n\n" +
				"Attributes\n- Title, shown as the page's heading\n- Price, in the shop's currency\n- Weight, used to compute shipping\n\n" +
				"Products without a price are hidden.",
			"Price, in the shop's currency"},
		{"What arguments does the deploy command take?", "README > Deploy",
			"Deploy\n\nThe deploy command pushes the current build to a server.\n\n" +
				"Arguments\n- target – the name of the server in servers.toml\n- tag – the build's tag, the latest one by default\n\n" +
				"Deploys are logged to deploy.log.",
			"target – the name of the server"},
	} {
		got := Extractive(c.question, []Source{{N: 1, Title: "Guide", HeadingPath: c.path, Content: c.content}}, 0).Answer
		if !strings.Contains(got, c.want) {
			t.Errorf("%q:\n%s\nwant the labelled list (%q)", c.question, got, c.want)
		}
	}
}

// TestReview56bColonlessReturnsAndRaises: in an API entry the colonless
// "Returns" / "Raises" label above its items is the only word the question
// ("What does upload return?", "What exceptions can Client.get raise?")
// shares with them: the label's words are its items', or the return value
// is left out and the exceptions question answered with the timeout
// parameter's item (a review).
func TestReview56bColonlessReturnsAndRaises(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ question, path, content, want, not string }{
		{"What does upload return?", "Storage > Uploading",
			"Uploading\n\nupload(path, name=None, public=False)\nUploads a local file to the bucket.\n\n" +
				"Parameters\n- path – the local file to upload.\n- name – the object's name in the bucket; the file's base name when None.\n- public – whether anyone with the URL can read the object.\n\n" +
				"Returns\n- the object's URL, valid for an hour when the object is private.\n- None when the upload was cancelled.\n\n" +
				"Objects over 5 GB are uploaded in parts.",
			"the object's URL, valid for an hour", ""},
		{"What exceptions can Client.get raise?", "API > Client",
			"Client\n\nget(key, timeout=None)\nFetches the value stored under key from the server.\n\n" +
				"Parameters\n- key (str) – the key to look up.\n- timeout (float) – seconds to wait for the server; the client's default when None.\n\n" +
				"Raises\n- KeyError – if no value is stored under key.\n- TimeoutError – if the server does not answer within timeout.\n\n" +
				"Values larger than 1 MB are fetched in chunks.",
			"KeyError", "seconds to wait for the server"},
	} {
		got := Extractive(c.question, []Source{{N: 1, Title: "API", HeadingPath: c.path, Content: c.content}}, 0).Answer
		if !strings.Contains(got, c.want) || c.not != "" && strings.Contains(got, c.not) {
			t.Errorf("%q:\n%s\nwant %q (and not %q)", c.question, got, c.want, c.not)
		}
	}
}

// TestReview56bParameterItemBesideIsNoise: a parameter's item is quoted
// beside the signature only when it says more than its name: the
// signature's own parameter names do not count as said
// (withoutParameters), and "How do I send a HEAD request to a URL?",
// answered by requests.head's signature and description, is no question
// for "- url – URL for the new Request object." (a review).
func TestReview56bParameterItemBesideIsNoise(t *testing.T) {
	t.Parallel()
	got := Extractive("How do I send a HEAD request to a URL?", []Source{{N: 1, HeadingPath: "Developer Interface > Main Interface", Content: requestsEntries("Parameters:")}}, 0).Answer
	if !strings.Contains(got, "requests.head(url, **kwargs): Sends a HEAD request") || strings.Contains(got, "URL for the new Request object") {
		t.Errorf("answer:\n%s\nwant requests.head's entry without the empty url item beside it", got)
	}
}

// requestsEntries is TestExtractiveEntryKeepsItsFields' content, with the
// parameter field's label as given.
func requestsEntries(label string) string {
	entry := func(sig, does, params string) string {
		return sig + "\n" + does + "\n\n" + label + "\n- url – URL for the new Request object.\n" + params + "- **kwargs – Optional arguments that request takes.\n\nReturns\nResponse object\n\n"
	}
	return entry("requests.head(url, **kwargs)", "Sends a HEAD request.", "") +
		entry("requests.post(url, data=None, json=None, **kwargs)", "Sends a POST request.",
			"- data – (optional) Dictionary, list of tuples, bytes, or file-like object to send in the body of the Request.\n- json – (optional) json data to send in the body of the Request.\n") +
		entry("requests.put(url, data=None, **kwargs)", "Sends a PUT request.", "- data – (optional) Dictionary, list of tuples, bytes, or file-like object to send in the body of the Request.\n")
}

// TestReview56bHappenIsTheQuestionsWord: "happen" is no stop word: "When/How
// often/Where does X happen?" is answered by the verb the documents answer
// with ("Garbage collection happens every six hours"), and an FAQ's own
// question "What happens if a payment fails?" matches "What happens if I
// miss a payment?" (a review).
func TestReview56bHappenIsTheQuestionsWord(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ question, path, content, want string }{
		{"How often does garbage collection happen?", "Storage > Garbage collection",
			"Garbage collection\n\nGarbage collection frees the blobs that no manifest references any more. Garbage collection is safe to run while the registry serves pulls.\n\n" +
				"Garbage collection happens every six hours by default; set gc.interval to change it.",
			"every six hours"},
		{"What happens if I miss a payment?", "Billing FAQ",
			"Billing FAQ\n\nHow do I pay? You can pay by card or bank transfer. A payment is due on the first of each month.\n\n" +
				"What happens if a payment fails? We retry the card three times over a week and email you each time. If all retries fail, the account is paused until you pay.",
			"We retry the card three times"},
		{"Where does the failover happen?", "HA > Failover",
			"Failover\n\nThe failover is triggered by the health checker after three missed heartbeats.\n\n" +
				"The failover itself happens on the standby node, which promotes itself and takes over the virtual IP.\n\n" +
				"A failover is logged in the cluster journal.",
			"on the standby node"},
		{"Why does the retry happen twice?", "Client > Retries",
			"Retries\n\nThe client retries a request when the server answers 503. A retry is logged at debug level.\n\n" +
				"The second retry happens because the first one is sent before the connection pool notices the dead connection.",
			"connection pool notices the dead connection"},
	} {
		got := Extractive(c.question, []Source{{N: 1, Title: "Docs", HeadingPath: c.path, Content: c.content}}, 0).Answer
		if !strings.Contains(got, c.want) {
			t.Errorf("%q:\n%s\nwant %q", c.question, got, c.want)
		}
	}
}
