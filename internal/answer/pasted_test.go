package answer

import (
	"strings"
	"testing"
)

// A question that pastes a numbered message ("AH00124: …") holds the
// page's copy of the message's sentences, which the page prints without
// the number: they are the asker's, and the answer is what the page says
// after them (an Apache trial's answer repeated the message sentence by
// sentence and left out the ways to break the loop).
func TestExtractiveSkipsThePagesCopyOfAPastedMessage(t *testing.T) {
	t.Parallel()
	src := []Source{{ChunkID: "a", SourceURI: "rewrite/htaccess.html", Title: "Per-directory Rewrites", HeadingPath: "Per-directory Rewrites > The [L] flag and looping",
		Content: `The rewritten request is processed again, and the rule matches once more. The server then logs:

Request exceeded the limit of 10 internal redirects due to probable configuration error. Use LimitInternalRecursion to increase the limit if necessary.

To break the loop, add the END flag to the rule, which stops the processing of the rules for good.`}}
	q := "AH00124: Request exceeded the limit of 10 internal redirects due to probable configuration error. Use LimitInternalRecursion to increase the limit if necessary. This started after I added a rule to .htaccess"
	r := Extractive(q, src, 2)
	if !strings.Contains(r.Answer, "add the END flag") || strings.HasPrefix(r.Answer, "Request exceeded") {
		t.Errorf("answer %q; want the way to break the loop, not the message again", r.Answer)
	}
	if !messageHead("AH00124:") || !messageHead("ORA-00942:") || messageHead("Python3:") || messageHead("Step2:") {
		t.Errorf("messageHead: a message's number is a head, a word is not")
	}
}
