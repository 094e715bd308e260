package answer

import (
	"strings"
	"testing"
)

// A question that pastes an error message gets what the page says after
// its copy of the message, through to the remedy the page announces: the
// copy is recognised whatever punctuation follows the error's name
// ("RuntimeError:" in the page, the question's run read without it), the
// sentence after the copy is about it, and the announced fix comes with
// it (h-trial24: the answer was the copy and "You are dealing with an
// environment where Python thinks you are restricted to ASCII data.",
// without the export lines).
func TestPastedMessageIsAnsweredWithTheRemedy(t *testing.T) {
	t.Parallel()
	copyOfError := "Traceback (most recent call last):\n  ...\nRuntimeError: Quokka will abort further execution because Python was\n  configured to use ASCII as encoding for the environment."
	if !echoes(copyOfError, mustRuns(t, "RuntimeError: Quokka will abort further execution because Python was configured to use ASCII as encoding for the environment.")) {
		t.Fatalf("the page's copy of the pasted message is not recognised as its echo")
	}
	content := "Quokka refuses to run when the environment is configured for ASCII only.\n\n" +
		"If you see something like this error:\n\n" + copyOfError + "\n\n" +
		"You are dealing with an environment where Python thinks you are restricted to ASCII data. The solution depends on the locale of your machine.\n\n" +
		"For instance, on a machine with a German locale you can fix the problem by exporting it:\n\n" +
		"export LC_ALL=de_DE.utf-8\nexport LANG=de_DE.utf-8\n\n" +
		"In Python 3.7 and later you will no longer get a RuntimeError in many environments thanks to PEP 538."
	r := Extractive("RuntimeError: Quokka will abort further execution because Python was configured to use ASCII as encoding for the environment.",
		[]Source{{N: 1, HeadingPath: "Unicode Support", Content: content}}, 3)
	if !strings.Contains(r.Answer, "export LC_ALL=de_DE.utf-8") {
		t.Errorf("the answer stops before the remedy:\n%s", r.Answer)
	}
	if strings.Contains(r.Answer, "Quokka will abort further execution") {
		t.Errorf("the answer quotes the asker's own message back:\n%s", r.Answer)
	}
}

func mustRuns(t *testing.T, question string) []string {
	t.Helper()
	runs, _ := quotedRuns(question)
	if len(runs) == 0 {
		t.Fatalf("no quoted runs in %q", question)
	}
	return runs
}

// For a question that asks how, a passage of prose alone goes on to the
// example its section gives next (past at most two sentences); a question
// of fact does not, nor does a passage that already instructs.
func TestHowToPassageGoesOnToTheExample(t *testing.T) {
	t.Parallel()
	content := "Like options, arguments can also grab values from an environment variable. Unlike options, this is only supported for explicitly named environment variables.\n\n" +
		"Example usage:\n\n" +
		"@quokka.command()\n@quokka.argument('src', envvar='SRC')\ndef echo(src):\n    quokka.echo(src)\n\n" +
		"Generally, this feature is not recommended because it can confuse users."
	src := []Source{{N: 1, HeadingPath: "Arguments > Environment Variables", Content: content}}
	how := Extractive("How do I read an argument's value from an environment variable?", src, 3)
	if !strings.Contains(how.Answer, "envvar='SRC'") {
		t.Errorf("how-to answer without the example:\n%s", how.Answer)
	}
	fact := Extractive("Can arguments grab values from an environment variable?", src, 3)
	if strings.Contains(fact.Answer, "envvar='SRC'") {
		t.Errorf("a question of fact was given the example:\n%s", fact.Answer)
	}
}

// The example follows in a section the chunk's heading path does not
// name too ("Allowed Hosts" inside a chunk of "Debugging Applications"),
// and after a sentence that already says what to do (h-trial23: the
// trusted_hosts code was left out).
func TestHowToPassageGoesOnToTheExampleInAnInChunkSection(t *testing.T) {
	t.Parallel()
	content := "Debugging Applications\n\nThe debugger renders tracebacks.\n\n" +
		"Allowed Hosts\n\n" +
		"If a request comes from a page that is not served on a trusted host, a 400 error is returned. " +
		"To change this further, use the debug middleware directly rather than through use_debugger=True.\n\n" +
		"if os.environ.get(\"USE_DEBUGGER\"):\n    app = DebuggedApplication(app, evalex=True)\n    app.trusted_hosts = [...]\n\nrun_simple(\"localhost\", 8080, app)\n\n" +
		"This feature is not meant to entirely secure the debugger."
	r := Extractive("The debugger console gives me a 400 error on my LAN hostname. How do I allow that host?",
		[]Source{{N: 1, HeadingPath: "Debugging Applications", Content: content}}, 3)
	if !strings.Contains(r.Answer, "app.trusted_hosts") {
		t.Errorf("how-to answer without the example:\n%s", r.Answer)
	}
}
