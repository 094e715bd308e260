package answer

import (
	"strings"
	"testing"
)

// Text that extraction recorded as code (Source.Code) is quoted as code
// whatever its shape: a server's start-up banner after a blank line in its
// <pre> has lower-case log lines, which read as a wrapped sentence and were
// quoted as "*** Starting uWSGI 2.0.20 ***: *** Operational MODE: async ***
// mounting hello:app on / spawned …" (h-trial23). Without the ranges the
// same text is judged by its shape, as before.
func TestRecordedCodeRangesAreCode(t *testing.T) {
	t.Parallel()
	intro := "Start the server with four workers and watch its start-up lines:"
	command := "$ quokkad --http 127.0.0.1:8000 --workers 4"
	banner := "*** Starting quokkad 2.0.20 (64bit) on [x] ***\n*** Operational MODE: preforking ***\nmounting hello:app on /\nspawned quokkad worker 1 (pid: x)\nspawned quokkad worker 2 (pid: x)"
	after := "The workers option starts worker processes; a starting value could be twice the CPU count."
	content := intro + "\n\n" + command + "\n\n" + banner + "\n\n" + after
	codeStart := len(intro) + 2
	spans := []Span{{Start: codeStart, End: codeStart + len(command) + 2 + len(banner)}}

	code, sentences := textsByKind(parseUnits(content, "Deploying > quokkad", spans...))
	if len(code) != 1 || !strings.Contains(code[0], command) || !strings.Contains(code[0], "spawned quokkad worker 2") {
		t.Errorf("the recorded code is not one code unit holding the command and its banner: %q", code)
	}
	for _, s := range sentences {
		if strings.Contains(s, "spawned") || strings.Contains(s, "***") {
			t.Errorf("recorded code quoted as a sentence: %q", s)
		}
	}
	if len(sentences) != 2 || sentences[1] != after {
		t.Errorf("prose around the code: %q, want the intro and %q", sentences, after)
	}

	// The same content without recorded ranges: the banner is judged by
	// its shape, and its log lines read as prose (the case the ranges fix).
	_, unrecorded := textsByKind(parseUnits(content, "Deploying > quokkad"))
	shaped := false
	for _, s := range unrecorded {
		shaped = shaped || strings.Contains(s, "spawned quokkad worker")
	}
	if !shaped {
		t.Errorf("without recorded ranges the banner was not read as prose (the test no longer shows what the ranges change): %q", unrecorded)
	}

	r := Extractive("How do I start quokkad with four workers?", []Source{{N: 1, HeadingPath: "Deploying > quokkad", Content: content, Code: spans}}, 3)
	if strings.Contains(r.Answer, "***: ") || strings.Contains(r.Answer, "on / spawned") {
		t.Errorf("answer runs the banner's lines together as prose:\n%s", r.Answer)
	}
}

// A recorded range is code even where a fence, a rule or a heading-like
// line would otherwise split or end it, and a range that ends mid-content
// (a chunk cut inside a code block) ends the code there.
func TestRecordedCodeRangeKeepsItsLines(t *testing.T) {
	t.Parallel()
	code := "Results\n=======\n```\nok 3 of 3"
	prose := "Each run prints its results this way, one line per test file."
	content := code + "\n\n" + prose
	us := parseUnits(content, "Testing", Span{Start: 0, End: len(code)})
	got, sentences := textsByKind(us)
	if len(got) != 1 || got[0] != code {
		t.Errorf("code units %q, want the recorded range verbatim %q", got, code)
	}
	if len(sentences) != 1 || sentences[0] != prose {
		t.Errorf("sentences %q, want %q", sentences, prose)
	}
}
