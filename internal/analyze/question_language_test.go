package analyze

import (
	"slices"
	"strings"
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

// TestFusedPartsKeepAPathsFileName: a path's file name is a part of its
// own, whole ("config.toml" of ~/.plinth/config.toml), as a question
// names it; a version after a slash is no file name.
func TestFusedPartsKeepAPathsFileName(t *testing.T) {
	for text, want := range map[string]string{
		"The file lives at ~/.plinth/config.toml.": "config.toml",
		"Edit /etc/apt/sources.list first.":        "sources.list",
		"see /etc/postgresql/15/main/pg_hba.conf":  "pg_hba.conf",
	} {
		if got := strings.Fields(FusedParts(text)); !slices.Contains(got, want) {
			t.Errorf("FusedParts(%q) = %q, want %q among them", text, got, want)
		}
	}
	for _, text := range []string{"It speaks HTTP/1.1 and TCP/IP.", "It is client/server.The next part is new."} {
		if got := FusedParts(text); strings.Contains(got, "1.1") || strings.Contains(got, "server.The") {
			t.Errorf("FusedParts(%q) = %q: a version or a sentence's end is no file name", text, got)
		}
	}
}
