package answer

import (
	"strings"
	"testing"
)

// TestCasedNameIsDefinedInItsCapitals: a name the question writes in mixed
// case ("sH") is defined by the entry spelled so, not by the entry of the
// same letters in other capitals ("SH"): HAProxy's "What does the
// termination state sH mean?" is answered by the server timeout, not by
// the server aborting.
func TestCasedNameIsDefinedInItsCapitals(t *testing.T) {
	t.Parallel()
	content := "8.5. Session state at disconnection\n\n" +
		"TCP and HTTP logs provide a session termination indicator in the \"termination_state\" field. It is 2-characters long in TCP mode, and each character has a special meaning.\n\n" +
		"SH\nThe server aborted before sending its full HTTP response headers, or it crashed while processing the request.\n\n" +
		"sH\nThe \"timeout server\" stroke before the server could return its response headers. This is the most common anomaly, indicating too long transactions.\n\n" +
		"PC\nThe proxy refused to establish a connection to the server because the process's socket limit has been reached.\n"
	src := []Source{{N: 1, Title: "Configuration Manual", HeadingPath: "Configuration Manual > 8. Logging > 8.5. Session state at disconnection", Content: content}}
	r := Extractive("What does the termination state sH in my logs mean?", src, 3)
	if !strings.Contains(r.Answer, "timeout server") || strings.Contains(r.Answer, "aborted") {
		t.Errorf("sH: answer %q, want the timeout's entry alone", r.Answer)
	}
}

// TestCasedNameInOtherCapitalsStillDefined: where the sources define the
// name in one spelling only, a question writing it in other capitals
// ("keepAliveTimeout" for "KeepAliveTimeout") still means that one.
func TestCasedNameInOtherCapitalsStillDefined(t *testing.T) {
	t.Parallel()
	content := "Connection handling\n\nThese directives control the server's connection handling.\n\n" +
		"KeepAliveTimeout\nAmount of time the server will wait for subsequent requests on a persistent connection.\n\n" +
		"Timeout\nAmount of time the server will wait for certain events before failing a request.\n\n" +
		"MaxKeepAliveRequests\nNumber of requests allowed on a persistent connection.\n"
	src := []Source{{N: 1, Title: "Core directives", HeadingPath: "Core directives > Connection handling", Content: content}}
	r := Extractive("What does keepAliveTimeout control?", src, 3)
	if !strings.HasPrefix(r.Answer, "KeepAliveTimeout: Amount of time") {
		t.Errorf("answer %q, want the KeepAliveTimeout entry first", r.Answer)
	}
}
