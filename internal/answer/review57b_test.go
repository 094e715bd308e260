package answer

import (
	"strings"
	"testing"
)

// portSources: a configuration page saying how to change the listening
// port, and a page that merely mentions port 8080 in passing.
func portSources(passing Source) []Source {
	return []Source{
		{N: 1, Title: "Configuration — frobd", HeadingPath: "Configuration — frobd > Listening port",
			Content: "Listening port\n\nTo run the server on a different port, set the port option in the [server] section of frobd.conf, or pass --port on the command line. The server listens on port 7000 unless told otherwise."},
		passing,
	}
}

// TestReview57bPortNumberInPassingDoesNotAnswerHow: asked "How do I run
// the server on port 8080?", a user wants how to change the port (the
// port option, --port); 8080 is just the value they want. A tutorial that
// assumes the server is on port 8080, or a changelog entry about port 8080
// being taken, says nothing about how to get there. Before 0ccb94f the
// configuration sentence led the answer; the valueTerms bonus now puts
// the passing mention first because it writes "8080".
func TestReview57bPortNumberInPassingDoesNotAnswerHow(t *testing.T) {
	t.Parallel()
	const q = "How do I run the server on port 8080?"
	for _, passing := range []Source{
		{N: 2, Title: "Tutorial — frobd", HeadingPath: "Tutorial — frobd > Your first request",
			Content: "Your first request\n\nThe examples below assume the server is on port 8080. Open a second terminal and send a request with curl to see the greeting."},
		{N: 2, Title: "Changelog — frobd", HeadingPath: "Changelog — frobd > 2.1",
			Content: "2.1\n\nThe server no longer crashes when port 8080 is already taken by another program."},
	} {
		r := Extractive(q, portSources(passing), 0)
		first := strings.SplitN(r.Answer, "\n", 2)[0]
		if !strings.Contains(first, "set the port option") {
			t.Errorf("%s (beside %q)\nAnswer =\n%s\nwant it to open with how to set the port option", q, passing.HeadingPath, r.Answer)
		}
	}
}

// TestReview57bVersionNumbersAreNotValues: "How do I upgrade from version 2
// to 3?" asks for the upgrade procedure; 2 and 3 are versions, not values
// a sentence should state. The changelog line "Version 3 removes the
// deprecated fetch_all function and requires Python 3.9." is not how to
// upgrade, yet it now wins over "To upgrade, install the new release with
// pip install --upgrade frob, then run frob migrate …" (which led before
// 0ccb94f) because it writes "3" (twice, counting "3.9").
func TestReview57bVersionNumbersAreNotValues(t *testing.T) {
	t.Parallel()
	const q = "How do I upgrade from version 2 to 3?"
	r := Extractive(q, []Source{
		{N: 1, Title: "Upgrading — frob", HeadingPath: "Upgrading — frob > Upgrading",
			Content: "Upgrading\n\nTo upgrade, install the new release with pip install --upgrade frob, then run frob migrate to convert your configuration file."},
		{N: 2, Title: "Changelog — frob", HeadingPath: "Changelog — frob > Release 3",
			Content: "Release 3\n\nVersion 3 removes the deprecated fetch_all function and requires Python 3.9."},
	}, 0)
	if first := strings.SplitN(r.Answer, "\n", 2)[0]; !strings.Contains(first, "To upgrade, install the new release") {
		t.Errorf("%s\nAnswer =\n%s\nwant it to open with the upgrade procedure", q, r.Answer)
	}
}

// TestReview57bValueWrittenAsCode: the fix for "What happens if I set
// processes to 0 …?" misses the ways technical users most often write the
// value: as code (`0`), as an assignment (processes=0) or quoted ("0").
// valueTerms skips any quoted token and any token that is not all digits,
// so these questions still get the config example setting 2, the exact
// answer the change was made to stop. A user expects the sentence on a
// value of 0 however they typed it.
func TestReview57bValueWrittenAsCode(t *testing.T) {
	t.Parallel()
	for _, q := range []string{
		"What happens if I set processes to `0` in the multiprocess config section?",
		"What happens if I set processes=0 in the multiprocess config section?",
		"What happens if I set processes to \"0\" in the multiprocess config section?",
	} {
		r := Extractive(q, nose2Parallel(), 0)
		if !strings.Contains(r.Answer, "a value of 0 will set the actual number of processes") {
			t.Errorf("%s\nAnswer =\n%s\nwant the sentence on a value of 0", q, r.Answer)
		}
	}
}

// TestReview57bAddressInProseIsNoTerm: in plain text, a line holding only
// an address (a URL or a path, which has "." and no blank) above the rest
// of its sentence is namedTerm's shape, so the sentence is cut into a
// definition: "https://example.org/docs/options.html: for the full list of
// options and their defaults." A user expects the sentence quoted as
// written (the URL followed by what it is for), not a colon the document
// never wrote, and not the URL "defined" as the tail of a sentence.
func TestReview57bAddressInProseIsNoTerm(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"Read more in the manual:\n\nhttps://example.org/docs/options.html\nfor the full list of options and their defaults.",
		"The full list of options is documented at\nhttps://example.org/docs/options.html\nwhich is updated with each release.",
	} {
		for _, u := range parseUnits(c, "Doc") {
			if len(u.defines) > 0 {
				t.Errorf("%q: unit %q defines %q; want no definition", c, u.text, u.defines)
			}
		}
	}
}
