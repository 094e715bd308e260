package answer

import (
	"strings"
	"testing"
)

// TestQuantityQuestionsNeedANumber: a question that asks for a number or
// a value is refused, with the reason, when the passages found give none
// ("What is the maximum size of a file the store accepts?" over pages
// that describe the store's files but state no limit); answered when they
// give one, in digits, words or a literal; and a question of how to do
// something is not one.
func TestQuantityQuestionsNeedANumber(t *testing.T) {
	t.Parallel()
	silent := []Source{{N: 1, Title: "Storage", HeadingPath: "Storage > Files",
		Content: "The store keeps each file as a sequence of blocks. Large files are split across blocks and read back in order when the file is requested."}}
	r := Extractive("What is the maximum size of a file the store accepts?", silent, 3)
	if !r.Refused || r.Reason == "" || r.Answer != RefusalPhrase {
		t.Errorf("no number in the passages: refused %v reason %q answer %q; want a refusal saying why", r.Refused, r.Reason, r.Answer)
	}
	for _, q := range []string{"How many blocks can a file have?", "What's the default block size of the store?"} {
		if r := Extractive(q, silent, 3); !r.Refused {
			t.Errorf("%q over passages giving no number: answered %q", q, r.Answer)
		}
	}
	example := []Source{{N: 1, Title: "Storage", HeadingPath: "Storage > Files",
		Content: "The store keeps each file as a sequence of blocks. A validator can check what is stored:\n\n```\ndef check(block):\n    assert len(block) < 4096\n```"}}
	if r := Extractive("How many blocks does the store keep for a file?", example, 3); !r.Refused {
		t.Errorf("a number only in a code example: answered %q", r.Answer)
	}
	// A question that also asks which setting does it is answered by the
	// setting's entry, which need name no number (the demo's "How many
	// concurrent disk I/O operations can PostgreSQL issue, and which
	// setting controls it?").
	setting := []Source{{N: 1, Title: "Resource Consumption", HeadingPath: "Server Configuration > Asynchronous Behavior",
		Content: "block_readahead (integer)\nSets the number of blocks the store reads ahead of a sequential scan."}}
	if r := Extractive("How many blocks does the store read ahead, and which setting controls it?", setting, 3); r.Refused {
		t.Errorf("a question asking which setting: refused (%q)", r.Reason)
	}
	// A boolean is no quantity: an attribute's line quoted beside the
	// passage gives no size.
	flag := []Source{{N: 1, Title: "Storage", HeadingPath: "Storage > Files",
		Content: "The store keeps each file as a sequence of blocks. compress = True: Whether the store compresses a file's blocks."}}
	if r := Extractive("What is the maximum size of a file the store accepts?", flag, 3); !r.Refused {
		t.Errorf("only booleans in the passages: answered %q", r.Answer)
	}
	if r := Extractive("How do I split large files across blocks in the store?", silent, 3); r.Refused {
		t.Errorf("a how-to question was refused: %q", r.Reason)
	}
	for _, content := range []string{
		"The store accepts files of at most 64 MB; larger files are split across blocks.",
		"The store accepts files of any size: there is no limit on the size of a file.",
		"The maximum size of a file is set by max_file_size, which is None (unlimited) by default.",
	} {
		src := []Source{{N: 1, Title: "Storage", HeadingPath: "Storage > Files", Content: content}}
		if r := Extractive("What is the maximum size of a file the store accepts?", src, 3); r.Refused {
			t.Errorf("passage %q gives the value, yet refused: %q", content, r.Reason)
		}
	}
	if !asksQuantity.MatchString("which port does the server listen on?") || asksQuantity.MatchString("What is the default template loader?") {
		t.Error("asksQuantity: a port is a number; a default loader is a name")
	}
	if strings.Contains(citationMark.ReplaceAllString("The store [1] keeps files [2].", ""), "[") {
		t.Error("citation markers are no numbers of the text")
	}
}
