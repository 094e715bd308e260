package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestChineseNamesHoldingAQuestionCharacterAreEvidence: the question-word
// filter of a Chinese question (analyze.Query) dropped, in its first
// version, every bigram holding one of 怎么什哪谁吗呢, so it also dropped
// content words that merely contain such a character: 吗啡 (morphine), 哪吒 (Nezha), 呢绒
// (woollen cloth), 什锦 (assorted). "吗啡和海洛因有什么区别？" (how does
// morphine differ from heroin?) then searched for heroin only, and the page
// on morphine, which shares no other bigram with the question, was not
// found. Only the question words themselves (什么, 怎么, 哪里, …) may be
// left out.
func TestChineseNamesHoldingAQuestionCharacterAreEvidence(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "zh-names", "", map[string]string{
		"zh/morphine.md": "# 吗啡\n\n吗啡是一种阿片类镇痛药，医院用它缓解癌症患者的剧烈疼痛。",
		"zh/heroin.md":   "# 海洛因\n\n海洛因是一种毒品，吸食海洛因会迅速成瘾。",
		"zh/tea.md":      "# 绿茶\n\n龙井和碧螺春都是著名的绿茶品种。",
	})
	ctx := context.Background()
	res, err := s.Search(ctx, tt, search.Request{Query: "吗啡和海洛因有什么区别？"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	found := false
	for _, r := range res.Results {
		got = append(got, r.SourceURI)
		found = found || r.SourceURI == "zh/morphine.md"
	}
	if !found {
		t.Errorf("the page on morphine (吗啡) is not among the results %q: its name was dropped as a question word", got)
	}
}
