package answer

import (
	"strings"
	"testing"
)

// TestParameterQuestionsQuoteTheParametersItem (h-trial36): an API entry
// opens with its class's signature, which lists every parameter
// ("heartbeat=None"), and describes each parameter in a field list below.
// "What does the heartbeat parameter of WebSocketResponse do?" was answered
// with the signature and the class's first line: the signature defined
// every word it held and led the entry. A signature defines what it calls;
// a parameter list's item defines its parameter; a question naming a
// parameter, option or setting is answered by that word's definition.
// A question about the class itself still gets the class's description.
func TestParameterQuestionsQuoteTheParametersItem(t *testing.T) {
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
	for _, c := range []struct{ question, want, not string }{
		{"What does the heartbeat parameter of ChannelResponse do?", "Send a ping every heartbeat seconds", "Class for handling"},
		{"What is the max_frame option of ChannelResponse for?", "Largest frame accepted", "Class for handling"},
		{"What is ChannelResponse?", "Class for handling server-side channels", "Send a ping"},
	} {
		got := Extractive(c.question, src, 3).Answer
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%q:\n%s\nwant %q, not %q", c.question, got, c.want, c.not)
		}
	}
	// The units: the signature defines the class, not its parameters; each
	// item defines its parameter.
	for _, u := range parseUnits(content, "Server Reference > Response classes") {
		switch {
		case strings.HasPrefix(u.text, "class tinyweb.ChannelResponse"):
			if strings.Join(u.defines, " ") != "tinyweb channelrespons" {
				t.Errorf("signature defines %q, want the class's name only", u.defines)
			}
		case strings.HasPrefix(u.text, "heartbeat (float)"):
			if strings.Join(u.defines, " ") != "heartbeat" {
				t.Errorf("heartbeat's item defines %q", u.defines)
			}
		}
	}
}

// TestFocusTerms: the word a question names as a parameter, option or
// setting, before the noun or (an identifier or option) after it; a word
// that says which kind ("the default option") is none.
func TestFocusTerms(t *testing.T) {
	for _, c := range []struct {
		question string
		want     []string
	}{
		{"What does the heartbeat parameter of WebSocketResponse do?", []string{"heartbeat"}},
		{"How do I set the timeout keyword argument?", []string{"timeout"}},
		{"What does the option --no-verify skip?", []string{"verify"}},
		{"Which setting controls the default option?", nil},
		{"What does the work_mem setting control?", []string{"work_mem"}},
		{"How do I close a channel?", nil},
	} {
		query := uniq(terms(c.question))
		qi := map[string]int{}
		for i, q := range query {
			qi[q] = i
		}
		var got []string
		for i := range focusTerms(c.question, qi) {
			got = append(got, query[i])
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q: focus %q, want %q", c.question, got, c.want)
		}
	}
}

// TestFocusIsTheWholeIdentifier: the setting a question names is the whole
// identifier: "work_mem" does not pick maintenance_work_mem's entry,
// which holds work_mem's parts.
func TestFocusIsTheWholeIdentifier(t *testing.T) {
	t.Parallel()
	src := []Source{
		{N: 1, Title: "Server Configuration", HeadingPath: "Server Configuration > Resource Consumption",
			Content: "maintenance_work_mem (integer)\nSpecifies the maximum amount of memory to be used by maintenance operations, such as VACUUM and CREATE INDEX.\n"},
		{N: 2, Title: "Server Configuration", HeadingPath: "Server Configuration > Resource Consumption",
			Content: "work_mem (integer)\nSets the base maximum amount of memory to be used by a query operation (such as a sort or hash table) before writing to temporary disk files.\n"},
	}
	got := Extractive("What does the work_mem setting control?", src, 3).Answer
	if !strings.Contains(got, "sort or hash table") || strings.Contains(got, "maintenance operations") {
		t.Errorf("answer:\n%s\nwant work_mem's entry alone", got)
	}
}

// TestKeyItemsDefineTheirKey: a list item opening with a key quoted or
// written as code, then a colon, defines that key, as a dictionary's
// documented keys do ("- 'parallel_read_safe': a boolean that …"); an
// item opening with a plain word and a colon ("Note: …") defines nothing.
func TestKeyItemsDefineTheirKey(t *testing.T) {
	content := "Extension metadata\n\nMetadata keys currently recognized are:\n\n" +
		"- 'version': a string that identifies the extension version.\n" +
		"- 'parallel_read_safe': a boolean that specifies if parallel reading of source files can be used.\n" +
		"- max_retries: how many times a failed read is tried again.\n" +
		"- Note: the keys are case-sensitive.\n"
	want := map[string]string{"'version'": "version", "'parallel_read_safe'": "parallel read saf parallel_read_safe", "max_retries": "max retry max_retries", "Note:": ""}
	seen := 0
	for _, u := range parseUnits(content, "Extensions > Extension metadata") {
		for prefix, defines := range want {
			if strings.HasPrefix(u.text, prefix) {
				seen++
				if got := strings.Join(u.defines, " "); got != defines {
					t.Errorf("%q defines %q, want %q", u.text, got, defines)
				}
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d items seen", seen, len(want))
	}
}

// TestPassageStopsAtTheNextDefinition: a passage opening with one
// definition entry does not run on into the next entry's ("proxies:
// Dictionary mapping protocol … to the URL of the proxy" went on with
// "put(url, data=None, **kwargs): Sends a PUT request"), unless the
// question asks how things differ.
func TestPassageStopsAtTheNextDefinition(t *testing.T) {
	content := "Session\n\n" +
		"proxies\nDictionary mapping protocol or protocol and host to the URL of the proxy to be used on each Request.\n\n" +
		"put(url, data=None, **kwargs)\nSends a PUT request. Returns a Response object.\n"
	src := []Source{{Content: content, Title: "API", HeadingPath: "API > Session"}}
	r := Extractive("How do I send my requests through a proxy?", src, 3)
	if !strings.Contains(r.Answer, "URL of the proxy") || strings.Contains(r.Answer, "PUT request") {
		t.Errorf("answer %q, want the proxies entry alone", r.Answer)
	}
}
