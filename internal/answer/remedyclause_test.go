package answer

import (
	"strings"
	"testing"
)

// TestRemedyClauseFollowsTheSymptom: a passage that states a problem goes
// on to the sentence saying what will solve it, wherever that sentence
// says so (HAProxy's management guide: the answer to "accept() fails with
// EMFILE; how do I fix it?" stopped at the symptom, before "In this case,
// simply raising the "ulimit-n" value (or removing it) will solve the
// problem.").
func TestRemedyClauseFollowsTheSymptom(t *testing.T) {
	t.Parallel()
	content := "5. File-descriptor limitations\n\n" +
		"In order to ensure that all incoming connections will successfully be served, HAProxy computes at load time the total number of file descriptors that will be needed during the process's life. " +
		"File descriptor limitations may be observed on a running process when they are set too low. " +
		"The strace utility will report that accept() and socket() return \"-1 EMFILE\" when the process's limits have been reached. " +
		"In this case, simply raising the \"ulimit-n\" value (or removing it) will solve the problem. " +
		"If these system calls return \"-1 ENFILE\" then it means that the kernel's limits have been reached and that something must be done on a system-wide parameter.\n"
	r := Extractive("Under load accept() fails with EMFILE; how do I fix it?", []Source{{N: 1, Title: "Management Guide",
		HeadingPath: "Management Guide > 5. File-descriptor limitations", Content: content}}, 3)
	if !strings.Contains(r.Answer, "EMFILE") || !strings.Contains(r.Answer, "ulimit-n") {
		t.Errorf("answer %q: want the symptom and the sentence that solves it", r.Answer)
	}
}
