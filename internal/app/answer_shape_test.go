package app

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/ask"
)

// jsonFields lists the JSON names of t's exported fields.
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// TestAskJSONIsTheAPIAnswer: `ragd ask --json` prints ask.Response and POST
// /v1/answer returns api.AnswerResponse; a user scripting one and then the
// other reads the same fields. The CLI adds invalid_citations (the
// citations the verification removed, which the API never returns); the
// API adds what only a served request has (its retrieval event, a
// follow-up's rewrite).
func TestAskJSONIsTheAPIAnswer(t *testing.T) {
	cli := slices.DeleteFunc(jsonFields(reflect.TypeFor[ask.Response]()), func(f string) bool { return f == "invalid_citations" })
	served := slices.DeleteFunc(jsonFields(reflect.TypeFor[api.AnswerResponse]()), func(f string) bool {
		return f == "event_id" || f == "standalone_question" || f == "rewrite"
	})
	if !slices.Equal(cli, served) {
		t.Fatalf("ragd ask --json fields %v, /v1/answer fields %v", cli, served)
	}
}
