package analyze

import (
	"slices"
	"testing"
)

// TestQuestionLanguage: a question's language from its function and
// question words, and those words; English and unclear questions give
// nothing.
func TestQuestionLanguage(t *testing.T) {
	for _, c := range []struct {
		q     string
		lang  string
		words []string
	}{
		{"Wie viele Urlaubstage haben Mitarbeiter?", "de", []string{"wie", "viele", "haben"}},
		{"Qui valide les notes de frais?", "fr", []string{"qui", "les", "de"}},
		{"¿Cómo puedo exportar la tabla?", "es", []string{"cómo", "puedo", "la"}},
		{"How many vacation days do employees have?", "", nil},
		{"Urlaubstage?", "", nil},
	} {
		lang, words := QuestionLanguage(c.q)
		if lang != c.lang || !slices.Equal(words, c.words) {
			t.Errorf("QuestionLanguage(%q) = %q, %q; want %q, %q", c.q, lang, words, c.lang, c.words)
		}
	}
}
