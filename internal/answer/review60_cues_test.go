package answer

import (
	"slices"
	"strings"
	"testing"
)

// "You will need to …" opens any prerequisite, not only a remedy: a
// factual answer on session lifetime runs on through two unrelated
// sentences on uploads and thumbnails to an ImageMagick prerequisite.
// Before 81f30bf the answer was the two sentences on sessions.
func TestReview60RemedyCuePrerequisite(t *testing.T) {
	t.Parallel()
	content := "Sessions are kept for 14 days by default. The value is read from SESSION_TTL at start-up. " +
		"Uploads are stored under /var/lib/app. Thumbnails are generated in the background. " +
		"You will need to install ImageMagick for thumbnails to work. " +
		"Logs rotate daily. Backups run nightly. Metrics are exported on port 9100. Traces are sampled at one percent."
	r := Extractive("How long are sessions kept?", []Source{{N: 1, Content: content, HeadingPath: "Guide"}}, 3)
	if !strings.Contains(r.Answer, "14 days") {
		t.Fatalf("answer lacks the fact:\n%s", r.Answer)
	}
	for _, off := range []string{"ImageMagick", "Thumbnails", "Uploads"} {
		if strings.Contains(r.Answer, off) {
			t.Errorf("answer runs on to an unrelated sentence (%s):\n%s", off, r.Answer)
		}
	}
}

// A sentence opening with "Were" inverted ("Were the queue to fill up,
// …") has its subject after the verb; and the first sentence of the next
// section is no sentence about the last code of the section before.
// Yet the rule pulls "queuectl produce …" and its caption from "Quick
// start" into an answer on back-pressure.
func TestReview60CopulaCrossesSection(t *testing.T) {
	t.Parallel()
	content := "## Quick start\n\nInstall the client and start a producer with the default settings:\n\nqueuectl produce --topic events --batch 500\n\n" +
		"## Back-pressure\n\nWere the queue to fill up, producers block until a consumer frees a slot. The wait is bounded by the produce timeout. Consumers free slots as they acknowledge."
	d := parseUnits(content, "Guide")
	at := slices.IndexFunc(d, func(u unit) bool { return strings.HasPrefix(u.text, "Were the queue") })
	code := slices.IndexFunc(d, func(u unit) bool { return u.kind == unitCode })
	if at < 0 || code < 0 || d[at].section == d[code].section {
		t.Fatalf("units %v", d)
	}
	if from, to := complete(d, at, at+1, 3, terms("what happens when the queue fills up"), false, false, false); from <= code {
		t.Errorf("quoted with another section's code: %q", quoted(d[from:to]))
	}
	r := Extractive("What happens when the queue fills up?", []Source{{N: 1, Content: content, HeadingPath: "Guide"}}, 3)
	if strings.Contains(r.Answer, "queuectl produce") {
		t.Errorf("answer:\n%s", r.Answer)
	}
}

// opensWithCopula takes an inverted conditional or an SQL keyword for a
// subjectless copula.
func TestReview60OpensWithCopulaInversion(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"Were the queue to fill up, producers block until a consumer frees a slot.",
		"IS DISTINCT FROM treats two nulls as equal.",
	} {
		if opensWithCopula(s) {
			t.Errorf("opensWithCopula(%q) = true; its subject is in the sentence", s)
		}
	}
}

// An example in brackets that names a call ("(e.g., calling close()
// twice).") is left a sentence of its own: the brackets inside it
// disqualify it, though it is the same gloss the commit joins.
func TestReview60GlossWithCall(t *testing.T) {
	t.Parallel()
	got := splitUnit("The handle was used after release. (e.g., calling close() twice). The next entry follows.")
	if len(got) != 2 {
		t.Errorf("splitUnit = %q, want the gloss joined to its sentence", got)
	}
}
