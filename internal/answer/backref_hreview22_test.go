package answer

import (
	"strings"
	"testing"
)

// TestHR22ConditionWithExistentialThere: an opening condition now counts
// as a back reference when one of its first three words is in
// backReferences; "there" is, so "If there is no route …", "When there
// are …" (existential there, no reference at all) and "Unless otherwise
// configured, …" lean on the sentence before. complete then prepends an
// unrelated sentence — here the last sentence of the previous section,
// across the "## Default queue" heading.
func TestHR22ConditionWithExistentialThere(t *testing.T) {
	t.Parallel()
	src := []Source{{N: 1, HeadingPath: "Routing", Content: "Workers can consume from several queues at once. The list of queues is given with the -Q option.\n\n" +
		"## Default queue\n\nIf there is no route for a task, Celery sends it to the default queue named celery."}}
	r := Extractive("Where does Celery send a task that has no route?", src, 0)
	if !strings.HasPrefix(r.Answer, "If there is no route for a task") {
		t.Errorf("Answer =\n%s\nwant it to open with the sentence that answers, not the previous section's", r.Answer)
	}
	for _, s := range []string{
		"If there is no route for a task, Celery sends it to the default queue.",
		"When there are no more messages, the worker exits.",
		"Unless otherwise configured, the hard time limit is disabled.",
	} {
		if opensWithBackReference(s) {
			t.Errorf("opensWithBackReference(%q) = true: nothing in it refers back", s)
		}
	}
}
