package analyze

import "testing"

func TestNormalize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain ascii":             "plain ascii",
		"cafe\u0301":              "caf\u00e9",
		"quokka\u00adberry":       "quokkaberry",
		"lime\u200bgrove\u2060ok": "limegroveok",
		"\ufeffbom":               "bom",
		"क्\u200dष":               "क्\u200dष", // a joiner that shapes the word stays
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
