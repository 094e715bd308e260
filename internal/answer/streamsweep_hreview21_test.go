package answer

import (
	"strings"
	"testing"
)

func TestHR21StreamSweep(t *testing.T) {
	samples := []string{
		"Alpha [1]. Beta 【2】 gamma ⁽³⁾ and ⁽⁹⁾ delta [Source: 2].",
		"Alpha [1]. 【注意】 text [⁷] and [2\u200e] more【1】.",
		"A [1] b [\u200b9] c [2]\nsecond 【9】 line ⁽2⁾",
		"A [1] b 【[9]2】 c",
		"A [1] b [【9】2] c ⁽[9]3⁾ d",
		"A [1] x² y⁽²⁾ — “quoted” … → [3]",
		"A [1] [Source:\u200b 2] [source :3] [Source\u200d:9]",
		"A [1], ［2］ 【３】 ⁽¹²⁾ [¹] [10²]",
		"A [1] [9\u0301] [2\ufe0f] [3\U000E0020] [\u2067 2\u2069]",
		"A [1]【1\n2】 [ 2 ",
		"A [1] 【 】 【source】 【 9 , 2 】",
	}
	for _, text := range samples {
		clean, _, _ := Verify(text, threeSources())
		for size := 1; size <= 7; size++ {
			var pieces []string
			for k := 0; k < len(text); k += size {
				pieces = append(pieces, text[k:min(k+size, len(text))])
			}
			got, div := streamThrough(pieces, 3)
			if !strings.HasPrefix(clean, got) || !div && got != clean {
				t.Errorf("%q size %d: streamed %q, want %q (diverged %v)", text, size, got, clean, div)
			}
		}
		for c1 := 0; c1 <= len(text); c1++ {
			for c2 := c1; c2 <= len(text); c2++ {
				got, div := streamThrough(splitAt(text, []int{c1, c2}), 3)
				if !strings.HasPrefix(clean, got) || !div && got != clean {
					t.Errorf("%q cuts %d %d: streamed %q, want %q (diverged %v)", text, c1, c2, got, clean, div)
				}
			}
		}
	}
}
