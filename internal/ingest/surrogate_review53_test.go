package ingest

import "testing"

// TestLoneSurrogate: a JSON text escaping half a surrogate pair is told
// from a whole pair, an escaped backslash and other escapes.
func TestLoneSurrogate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		`{"source_uri":"sur/a\ud800b.md"}`:     true,
		`{"source_uri":"sur/a\udc01b.md"}`:     true,
		`{"t":"\ud83d"}`:                       true,
		`{"t":"\ud83d\u0041"}`:                 true,
		`{"t":"\ud83d\ude00 smile"}`:           false,
		`{"t":"\\ud800 is written, not sent"}`: false,
		`{"t":"a\"b\\\\","u":"\u00e9\n"}`:      false,
		`{"t":"ends with \\"}`:                 false,
		`{"t":"\uD800"}`:                       true,
	} {
		if got := LoneSurrogate([]byte(in)); got != want {
			t.Errorf("LoneSurrogate(%s) = %v, want %v", in, got, want)
		}
	}
}
