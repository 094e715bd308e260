package answer

import (
	"strings"
	"testing"
)

// A question that tells the asker's situation before asking ("I set my
// zone's serial number to a date in the future. How do I get it back …?")
// is answered by what the page says to do about it, not by the page's
// description of the same mistake, whose words the account shares.
func TestExtractiveAnswersTheRemedyNotTheAskersSituation(t *testing.T) {
	t.Parallel()
	sources := []Source{{ChunkID: "a", SourceURI: "tips.html", Title: "Troubleshooting", HeadingPath: "Troubleshooting > Changing the Serial Number",
		Content: "Zone serial numbers are just numbers and are not date-related. However, many people set them to a number that represents a date. " +
			"Occasionally they make a mistake and set the serial number to a date in the future, then try to correct it by setting it to the current date. " +
			"This causes problems because serial numbers are used to indicate that a zone has been updated. " +
			"If the serial number on the secondary server is lower than the serial number on the primary, the secondary server attempts to update its copy of the zone. " +
			"Setting the serial number to a lower number on the primary server than the one on the secondary server means that the secondary will not perform updates. " +
			"The solution to this is to add 2147483647 to the number, reload the zone and make sure all secondaries have updated, then reset it to the desired number and reload the zone again."}}
	r := Extractive("I accidentally set my zone's serial number to a date far in the future. How do I get it back to a normal value so the secondaries still pick up changes?", sources, 0)
	if !strings.Contains(r.Answer, "2147483647") {
		t.Errorf("answer without the remedy:\n%s", r.Answer)
	}
}

// A sentence that says to follow steps tells what to do, as an imperative
// does: a question asking how to edit a dynamic zone by hand is answered
// with the steps, not with the sentence saying it cannot normally be done.
func TestExtractiveHowQuotesTheStepsToFollow(t *testing.T) {
	t.Parallel()
	sources := []Source{{ChunkID: "a", SourceURI: "dyn.html", Title: "Dynamic Update", HeadingPath: "Dynamic Update > The Journal File",
		Content: "All changes made to a zone using dynamic update are stored in the zone's journal file. " +
			"The zone files of dynamic zones cannot normally be edited by hand because they are not guaranteed to contain the most recent dynamic changes; those are only in the journal file. " +
			"The only way to ensure that the zone file of a dynamic zone is up to date is to run rndc stop. " +
			"To make changes to a dynamic zone manually, follow these steps: first, disable dynamic updates to the zone using rndc freeze zone. " +
			"This updates the zone file with the changes stored in its journal. Then, edit the zone file. Finally, run rndc thaw zone to reload the changed zone."}}
	r := Extractive("How do I hand-edit a zone file for a zone that receives dynamic updates without losing changes?", sources, 0)
	if !strings.Contains(r.Answer, "rndc freeze") {
		t.Errorf("answer without the steps:\n%s", r.Answer)
	}
}

// The asker's own terms are those of the statements before the question
// that the question itself does not hold; a question of one sentence, or
// one that states nothing before asking, has none.
func TestSituationTerms(t *testing.T) {
	t.Parallel()
	own := situationTerms("I accidentally set my zone's serial number to a date far in the future. How do I get it back so the secondaries pick up changes?")
	if !own["serial"] || !own["futur"] || own["secondari"] || own["chang"] {
		t.Errorf("situation terms %v: want serial and futur, not the asked secondari or chang", own)
	}
	for _, q := range []string{"How do I get the serial number back?", "Why? How do I get it back?"} {
		if own := situationTerms(q); len(own) != 0 {
			t.Errorf("%q: situation terms %v, want none", q, own)
		}
	}
}

// A tutorial says what to do in its own voice, by naming the means ("We
// do this by adding the attribute should_panic to our test function"):
// for a question asking how, that passage is the answer, not the
// section's opening sentences that set the scene and share the
// question's words (the Rust book's section, as extracted).
func TestExtractiveHowQuotesTheMeans(t *testing.T) {
	t.Parallel()
	sources := []Source{{ChunkID: "a", SourceURI: "tests.html", Title: "How to Write Tests", HeadingPath: "How to Write Tests > Checking for Panics with should_panic",
		Content: "Checking for Panics with should_panic\n\n" +
			"In addition to checking return values, it's important to check that our code handles error conditions as we expect. " +
			"For example, consider the Guess type that we created in Chapter 9, Listing 9-13. " +
			"Other code that uses Guess depends on the guarantee that Guess instances will contain only values between 1 and 100. " +
			"We can write a test that ensures that attempting to create a Guess instance with a value outside that range panics.\n\n" +
			"We do this by adding the attribute should_panic to our test function. " +
			"The test passes if the code inside the function panics; the test fails if the code inside the function doesn't panic.\n\n" +
			"Listing 11-8 shows a test that checks that the error conditions of Guess::new happen when we expect them to."}}
	r := Extractive("How do I write a test that checks that my code panics?", sources, 0)
	if !strings.Contains(r.Answer, "should_panic") {
		t.Errorf("answer without the means:\n%s", r.Answer)
	}
	for _, s := range []string{"We do this by adding the attribute.", "Resolution can be restored by adding server clauses.", "You can fix it by exporting LANG."} {
		if !instructs(s) {
			t.Errorf("instructs(%q) = false", s)
		}
	}
	if instructs("The page was followed by nothing.") || instructs("Passed by reference, the value changes.") {
		t.Error("instructs: a means clause without a verb of doing counted")
	}
}

// For a question asking how, a section's first sentence earns half the
// lead's credit: one that sets the scene with the question's words loses
// to the later sentence holding the same words that says what to do.
func TestExtractiveHowPrefersTheInstructionToTheLead(t *testing.T) {
	t.Parallel()
	sources := []Source{{ChunkID: "a", SourceURI: "run.html", Title: "Running Tests", HeadingPath: "Running Tests > Captured output",
		Content: "Captured output\n\nBy default the output of passing tests is captured by the runner.\n\n" +
			"Failures are reported at the end of the run, with their messages.\n\n" +
			"We do this by adding the flag --nocapture to the test command, and the output then appears."}}
	r := Extractive("How do I show the output of passing tests?", sources, 1)
	if !strings.Contains(r.Answer, "--nocapture") {
		t.Errorf("answer without the instruction:\n%s", r.Answer)
	}
}
