package answer

import (
	"strings"
	"testing"
)

// sslVerification is Requests' "SSL Cert Verification" section as the
// Requests 2.28 documentation writes it: the default first, the way to
// switch it off further down.
func sslVerification() []Source {
	return []Source{{
		N:           1,
		HeadingPath: "Advanced Usage > SSL Cert Verification",
		Content: "SSL Cert Verification\n\n" +
			"Requests verifies SSL certificates for HTTPS requests, just like a web browser. By default, SSL verification is enabled, " +
			"and Requests will throw a SSLError if it’s unable to verify the certificate:\n\n" +
			">>> requests.get('https://requestb.in')\nrequests.exceptions.SSLError: hostname 'requestb.in' doesn't match either of '*.herokuapp.com', 'herokuapp.com'\n\n" +
			"You can pass verify the path to a CA_BUNDLE file or directory with certificates of trusted CAs:\n\n" +
			">>> requests.get('https://github.com', verify='/path/to/certfile')\n\n" +
			"Requests can also ignore verifying the SSL certificate if you set verify to False:\n\n" +
			">>> requests.get('https://kennethreitz.org', verify=False)\n<Response [200]>\n\n" +
			"Note that when verify is set to False, requests will accept any TLS certificate presented by the server. " +
			"By default, verify is set to True. Option verify only applies to host certs.",
	}}
}

// TestExtractiveTurnOffFindsTheSwitch: "turn off" is answered by the
// sentence that switches the thing off in the document's own words
// (ignore … set verify to False), not by the one saying it is on by
// default, which holds as many of the question's words; "turn on" by the
// sentence that switches it on.
func TestExtractiveTurnOffFindsTheSwitch(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"How do I turn off SSL certificate verification?", "How can I switch SSL certificate verification off?", "Can I disable SSL certificate verification?"} {
		r := Extractive(q, sslVerification(), 0)
		if !strings.HasPrefix(r.Answer, "Requests can also ignore verifying the SSL certificate if you set verify to False [1]") {
			t.Errorf("%s\nAnswer =\n%s\nwant the sentence that sets verify to False first", q, r.Answer)
		}
	}
	r := Extractive("How do I turn on SSL certificate verification again?", sslVerification(), 0)
	if strings.HasPrefix(r.Answer, "Requests can also ignore") {
		t.Errorf("Answer =\n%s\nswitching on is answered with switching off", r.Answer)
	}
}

func TestToggleTerms(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"How do I turn off SSL certificate verification?":  {offTerm},
		"How do I turn the deprecation warnings off?":      {offTerm},
		"How can I disable the cache?":                     {offTerm},
		"How do I turn on debug logging?":                  {onTerm},
		"Can I enable compression for backups?":            {onTerm},
		"What does the cache store?":                       nil,
		"Which options depend on the server's turnaround?": nil,
	}
	for q, want := range cases {
		if got := toggleTerms(q); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("toggleTerms(%q) = %q, want %q", q, got, want)
		}
	}
	for s, want := range map[string]bool{
		"Requests can also ignore verifying the SSL certificate if you set verify to False": true,
		"Pass --no-verify to skip the hooks":                                                true,
		"cache = off":                                                                       true,
		"By default, SSL verification is enabled":                                           false,
		"The cache stores the responses of requests.":                                       false,
	} {
		if got := switchesOff.MatchString(s); got != want {
			t.Errorf("switchesOff(%q) = %v, want %v", s, got, want)
		}
	}
}
