package answer

import (
	"strings"
	"testing"
)

// TestExtractiveQuotesTheListACJKSentenceAnnounces_hreview9: complete brings
// the list a sentence ending with ":" announces, but a Chinese or Japanese
// sentence announces it with the full-width colon "：". Asked how to
// configure the proxy, the answer is one bare item ("- 设置代理服务器的地址。")
// without the sentence that announces the steps or the second step.
// Expected: the announcing sentence and both items, as for ":".
func TestExtractiveQuotesTheListACJKSentenceAnnounces_hreview9(t *testing.T) {
	t.Parallel()
	content := "代理\n\n配置代理需要以下步骤：\n\n- 设置代理服务器的地址。\n- 设置超时时间。\n\n然后重启服务。"
	r := Extractive("代理如何配置？", []Source{{N: 1, ChunkID: "c", Content: content}}, 3)
	for _, want := range []string{"配置代理需要以下步骤", "设置代理服务器的地址", "设置超时时间"} {
		if !strings.Contains(r.Answer, want) {
			t.Errorf("Answer = %q, want it to hold %q (the announcing sentence and its whole list)", r.Answer, want)
		}
	}
}
