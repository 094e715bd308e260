package store

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONDepth(t *testing.T) {
	t.Parallel()
	for doc, want := range map[string]int{
		`{}`:                            1,
		`{"a":1,"b":"x"}`:               1,
		`{"a":{"b":[1,2]}}`:             3,
		`{"a":[],"b":{"c":{"d":null}}}`: 3,
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		if got := JSONDepth(v); got != want {
			t.Errorf("JSONDepth(%s) = %d, want %d", doc, got, want)
		}
	}
	var deep any
	if err := json.Unmarshal([]byte(`{"a":`+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)+`}`), &deep); err != nil {
		t.Fatal(err)
	}
	if got := JSONDepth(deep); got <= MaxJSONDepth || got > MaxJSONDepth+2 {
		t.Errorf("JSONDepth of 5,001 levels = %d, want just past MaxJSONDepth (%d): counting stops there", got, MaxJSONDepth)
	}
}
