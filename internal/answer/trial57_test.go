package answer

import (
	"slices"
	"strings"
	"testing"
)

// TestDanglingConditionGoesOn: a passage ending on a condition with no
// main clause ("However, if you need to turn this behavior off for some
// reason.", PLY's manual) goes on to the sentence that says what to do and
// the code it announces, in place of the passage's first sentences (a
// held-out trial quoted the condition alone).
func TestDanglingConditionGoesOn(t *testing.T) {
	t.Parallel()
	src := []Source{{
		N:           1,
		Title:       "PLY (Python Lex-Yacc)",
		HeadingPath: "PLY (Python Lex-Yacc) > 6.8.4 When Do Syntax Errors Get Reported",
		Content: "6.8.4 When Do Syntax Errors Get Reported\n\n" +
			"In most cases, yacc will handle errors as soon as a bad input token is detected on the input. " +
			"However, be aware that yacc may choose to delay error handling until after it has reduced one or more grammar rules first. " +
			"This behavior might be unexpected so some explanation is in order. " +
			"If the next token is bad, yacc will eventually get around to reading it and report a syntax error. " +
			"It's just a little unusual in that you might see some of your grammar rules firing immediately prior to the syntax error. " +
			"Usually, the delayed error reporting with defaulted states is harmless (and there are other reasons for wanting PLY to behave in this way). " +
			"However, if you need to turn this behavior off for some reason. You can clear the defaulted states table like this:\n\n" +
			"```\nparser = yacc.yacc()\nparser.defaulted_states = {}\n```\n\n" +
			"Disabling defaulted states is not recommended if your grammar makes use of embedded actions as described in Section 6.11.",
	}}
	q := "Why do some of my grammar rules run just before a syntax error is reported, and can I turn that off?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "parser.defaulted_states = {}") {
		t.Errorf("%s\nAnswer =\n%s\nwant the code that turns it off", q, r.Answer)
	}
	for s, want := range map[string]bool{
		"However, if you need to turn this behavior off for some reason.": true,
		"If the file is missing.":                      true,
		"When the pool is closed.":                     true,
		"But unless a timeout is given.":               true,
		"If you need to turn it off, clear the table.": false,
		"If the file is missing then the call fails.":  false,
		"When asked, the server replies.":              false,
		"Use the flag if you need it.":                 false,
	} {
		if got := danglingCondition(s); got != want {
			t.Errorf("danglingCondition(%q) = %v, want %v", s, got, want)
		}
	}
}

// mp3Attributes is mutagen's MPEGInfo entry as extraction writes it: an
// attribute list whose names are code and whose descriptions start in
// lower case (Sphinx's "Useful attributes").
func mp3Attributes() []Source {
	return []Source{{
		N:           1,
		Title:       "MP3 — mutagen",
		HeadingPath: "MP3 — mutagen",
		Content: "MP3\n\nMPEG audio stream information and tags.\n\nclass mutagen.mp3.MP3(filething)\nAn MPEG audio (usually MPEG-1 Layer 3) file.\n\n" +
			"class mutagen.mp3.MPEGInfo\nMPEG audio stream information\n\nParse information about an MPEG audio file.\n\nUseful attributes:\n\n" +
			"sample_rate\naudio sample rate, in Hz\n\nType\nint\n\n" +
			"encoder_info\na string containing encoder name and possibly version. In case a lame tag is present this will start with \"LAME \", if unknown it is empty, otherwise the text format is undefined.\n\n" +
			"Type\nmutagen.text\n\n" +
			"encoder_settings\na string containing a guess about the settings used for encoding. The format is undefined and depends on the encoder.\n\n" +
			"class mutagen.mp3.EasyMP3(filething)\nLike MP3, but uses EasyID3 for tags.",
	}}
}

// TestNamedTermDefinesLowerCaseDescription: a name written as code on its
// own line ("encoder_info") above a description starting in lower case is
// a definition, not a code block; read as code, it was never quoted for
// which encoder made an MP3 file (a held-out trial on mutagen).
func TestNamedTermDefinesLowerCaseDescription(t *testing.T) {
	t.Parallel()
	var found bool
	for _, u := range parseUnits(mp3Attributes()[0].Content, "MP3 — mutagen") {
		if strings.HasPrefix(u.text, "encoder_info: a string containing encoder name") {
			found = true
			if u.kind != unitSentence || !slices.Contains(u.defines, "encoder_info") {
				t.Errorf("encoder_info's description: kind %d, defines %q; want a sentence defining encoder_info", u.kind, u.defines)
			}
		}
		if u.kind == unitCode && strings.Contains(u.text, "a string containing") {
			t.Errorf("description read as code: %q", u.text)
		}
	}
	if !found {
		t.Errorf("no unit \"encoder_info: a string containing encoder name …\"")
	}
	for l, want := range map[string]bool{"encoder_info": true, "mutagen.File": true, "close()": true, "Note": false, "the options": false, "...": false} {
		if got := namedTerm(l); got != want {
			t.Errorf("namedTerm(%q) = %v, want %v", l, got, want)
		}
	}
}
