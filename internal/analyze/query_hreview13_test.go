package analyze

import (
	"strings"
	"testing"
)

// A Latin word beside Japanese text is content, but it is most often the
// product the question is asked in (Vim, Git, Python), written in every
// document of the tenant, while the question's subject is a Japanese word
// with okurigana (折り畳み "folds", 取り消す "undo", 書き込み "write"),
// every bigram of which holds hiragana. Query must still send some bigram
// of that subject: "Vimで折り畳みを開くには？" ("how do I open folds in
// Vim?") was sent as " Vim ？" alone, which every Vim document matches;
// before 17dfde6 it sent 折り り畳 畳み ….
func TestQueryKeepsTheJapaneseSubjectBesideALatinName(t *testing.T) {
	for q, subject := range map[string][]string{
		"Vimで折り畳みを開くには？":  {"折り", "り畳", "畳み"},
		"Gitで取り消すには？":     {"取り", "り消", "消す"},
		"Pythonで書き込みするには": {"書き", "き込", "込み"},
	} {
		got := Query(q)
		kept := false
		for _, bg := range subject {
			kept = kept || strings.Contains(" "+got+" ", " "+bg+" ")
		}
		if !kept {
			t.Errorf("Query(%q) = %q: none of the subject's bigrams %q", q, got, subject)
		}
	}
}

// The quantity word after "how" is the question's form only when it
// stands alone: in a hyphenated compound ("long-running", "many-to-many",
// "old-style") it is part of the content the documents write. Query
// turned "How long-running queries are logged?" into "How-running queries
// are logged?", whose lexemes (how-run, how, run) no longer include
// long-running or long.
func TestQueryKeepsAQuantityWordOfACompound(t *testing.T) {
	for q, compound := range map[string]string{
		"How long-running queries are logged?":     "long-running",
		"How many-to-many relations are declared?": "many-to-many",
		"How old-style configs are converted?":     "old-style",
	} {
		if got := Query(q); !strings.Contains(got, compound) {
			t.Errorf("Query(%q) = %q, want %q kept", q, got, compound)
		}
	}
}
