package answer

import (
	"strings"
	"testing"
)

// TestTranslationsAreNotSupport: a manual shipped with its translations
// (Beautiful Soup's, in English, Portuguese and Russian) matches an English
// question in every language through the identifiers and messages the
// translations keep; the answer quoted the English paragraph, then the
// same one in Portuguese and in Russian. A supporting passage in another
// language than the question's is left out; one in the question's language
// that shares those identifiers stays.
func TestTranslationsAreNotSupport(t *testing.T) {
	t.Parallel()
	en := Source{N: 1, Title: "Beautiful Soup Documentation", HeadingPath: "Beautiful Soup Documentation > Troubleshooting > Miscellaneous",
		Content: "AttributeError: 'ResultSet' object has no attribute 'foo' - This usually happens because you expected find_all() to return a single tag or string. " +
			"But find_all() returns a list of tags and strings, a ResultSet object."}
	pt := Source{N: 2, Title: "Documentação Beautiful Soup", HeadingPath: "Documentação Beautiful Soup > Solução de Problemas > Diversos",
		Content: "AttributeError: 'ResultSet' object has no attribute 'foo' - Isso geralmente ocorre quando você espera que find_all() retorne uma única tag ou string. " +
			"Mas find_all() retorna uma lista de tags e strings, um objeto ResultSet."}
	ru := Source{N: 3, Title: "Документация Beautiful Soup", HeadingPath: "Документация Beautiful Soup > Устранение неисправностей > Прочее",
		Content: "AttributeError: 'ResultSet' object has no attribute 'foo' — это обычно происходит тогда, когда вы ожидаете, что find_all() вернет один тег или строку. " +
			"Но find_all() возвращает список тегов и строк — объект ResultSet."}
	q := "Why do I get AttributeError: 'ResultSet' object has no attribute 'foo' after calling find_all()?"
	r := Extractive(q, []Source{en, pt, ru}, 3)
	if !strings.Contains(r.Answer, "This usually happens") {
		t.Fatalf("answer %q: want the English paragraph", r.Answer)
	}
	for _, w := range []string{"Isso geralmente", "это обычно", "retorna", "возвращает"} {
		if strings.Contains(r.Answer, w) {
			t.Errorf("answer %q quotes a translation (%q)", r.Answer, w)
		}
	}
	// Another English page saying more about the same error is support.
	more := Source{N: 2, Title: "Porting code to BS4", HeadingPath: "Porting code to BS4 > Method names",
		Content: "If you see AttributeError: 'ResultSet' object has no attribute 'foo', loop over the result of find_all() or call find() to get a single tag instead."}
	r = Extractive(q, []Source{en, more}, 3)
	if !strings.Contains(r.Answer, "loop over the result") {
		t.Errorf("answer %q: want the English supporting passage", r.Answer)
	}
}

func TestForeignSignals(t *testing.T) {
	t.Parallel()
	sentence := func(s string) []unit { return []unit{{kind: unitSentence, text: s}} }
	for _, c := range []struct {
		question, passage string
		want              bool
	}{
		{"How do I fix text that mixes UTF-8 and Windows-1252?",
			"Algumas vezes um documento é em sua maioria UTF-8, mas contém caracteres Windows-1252 assim como (de novo) Microsoft smart quotes.", true},
		{"How do I fix text that mixes UTF-8 and Windows-1252?",
			"Sometimes a document is mostly in UTF-8, but contains Windows-1252 characters such as (again) Microsoft smart quotes.", false},
		// Terse English still carries its function words.
		{"What does select_one() return?", "Returns the first tag matching the given CSS selector, or None when nothing matches.", false},
		// A German question: the English-word test does not apply; the script does.
		{"Wie installiere ich das Paket?", "Das Paket wird mit pip installiert, danach ist es sofort einsatzbereit.", false},
		{"Wie installiere ich das Paket?", "Пакет устанавливается с помощью pip, после чего он сразу готов к работе.", true},
		// Japanese question, Japanese passage; and an English one under it.
		{"パッケージをインストールするには？", "パッケージは pip でインストールします。", false},
		{"パッケージをインストールするには？", "The package is installed with pip and is ready to use at once.", true},
		// Too short to tell.
		{"How do I install it?", "pip install beautifulsoup4 lxml", false},
	} {
		if got := foreign(c.question, sentence(c.question), sentence(c.passage)); got != c.want {
			t.Errorf("foreign(%q, %q) = %v, want %v", c.question, c.passage, got, c.want)
		}
	}
	// Code is the same in every language: it does not make a passage foreign.
	us := []unit{{kind: unitSentence, text: "Run this to install it:"}, {kind: unitCode, text: "pip install beautifulsoup4\nимпорт = 1"}}
	if foreign("How do I install it?", []unit{{kind: unitSentence, text: "Install it with pip."}}, us) {
		t.Errorf("a passage's code decided its language")
	}
}

// TestEnglishWithArticlesIsNotForeign: "a" is a word of Portuguese,
// Spanish, French and Italian too; an English sentence rich in it
// ("… while sending a task is now re-raised as a kombu… error") was taken
// for Portuguese when English did not count it.
func TestEnglishWithArticlesIsNotForeign(t *testing.T) {
	t.Parallel()
	us := []unit{{kind: unitSentence, text: "Connection related errors occurring while sending a task is now re-raised as a kombu.exceptions.OperationalError error."}}
	if foreign("How do I send a particular task to its own dedicated queue?", []unit{{kind: unitSentence, text: "Use the queue option of apply_async to route the task to the queue of your choice."}}, us) {
		t.Errorf("an English sentence was taken for another language")
	}
}
