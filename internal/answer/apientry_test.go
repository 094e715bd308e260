package answer

import (
	"strings"
	"testing"
)

// TestNextEntryIsNoPartOfTheAnswer: a chunk that packs short API entries
// (the Lua manual's: the name as a heading, "[-2, +0, e]", the prototype,
// the description) holds each entry's name as a section title; a title
// shaped like code above no prose starts the next entry's section, so an
// answer from lua_rawlen's description does not run on into lua_rawset's
// prototype and description (a fresh user's "length operator" answer).
func TestNextEntryIsNoPartOfTheAnswer(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	var code []Span
	entry := func(name, apii, proto, text string) {
		b.WriteString(name + "\n\n" + apii + "\n\n")
		start := b.Len()
		b.WriteString(proto)
		code = append(code, Span{Start: start, End: b.Len()})
		b.WriteString("\n\n" + text + "\n\n")
	}
	entry("lua_rawlen", "[-0, +0, –]", "size_t lua_rawlen (lua_State *L, int index);",
		"Returns the raw \"length\" of the value at the given index: for strings, this is the string length; for tables, this is the result of the length operator ('#') with no metamethods; for userdata, this is the size of the block of memory allocated for the userdata; for other values, it is 0.")
	entry("lua_rawset", "[-2, +0, e]", "void lua_rawset (lua_State *L, int index);",
		"Similar to lua_settable, but does a raw assignment (i.e., without metamethods).")
	r := Extractive("What does the length operator # return for a table?", []Source{{N: 1, Title: "Lua 5.2 Reference Manual",
		HeadingPath: "Lua 5.2 Reference Manual > 4.8 – Functions and Types > lua_rawlen", Content: b.String(), Code: code,
		Titles: []string{"lua_rawlen", "lua_rawset"}}}, 3)
	if !strings.Contains(r.Answer, "result of the length operator") {
		t.Fatalf("answer %q: want lua_rawlen's description", r.Answer)
	}
	if strings.Contains(r.Answer, "lua_rawset") || strings.Contains(r.Answer, "Similar to lua_settable") {
		t.Errorf("answer %q runs on into the next entry", r.Answer)
	}
}
