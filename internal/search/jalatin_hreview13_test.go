package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// A Japanese question asked "in Vim" about a subject written with
// okurigana (折り畳み, folds) finds the document about folds: the keyword
// query must not shrink to the product name every document writes
// ("Vimで折り畳みを開くには？" was searched as " Vim ？" since 17dfde6, and
// the documents that write Vim most came first).
func TestJapaneseSubjectBesideALatinNameFindsItsDocument(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt, s := corpusTenant(t, "jalatin", "simple", map[string]string{
		"fold.md":   "# 折り畳み\n\nVimではzRですべての折り畳みを開きます。zMで閉じます。",
		"window.md": "# ウィンドウ\n\nVimでは:splitでウィンドウを分割します。Vimのウィンドウは:closeで閉じます。Vimの画面を広げます。",
		"buffer.md": "# バッファ\n\nVimのバッファは:lsで一覧します。Vimで:bnextを使います。Vimのバッファを切り替えます。",
		"tab.md":    "# タブ\n\nVimのタブは:tabnewで開きます。Vimで:tabnextを使います。Vimのタブを閉じます。",
	})
	resp, err := s.Search(ctx, tt, search.Request{Query: "Vimで折り畳みを開くには？", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || resp.Results[0].SourceURI != "fold.md" {
		var got []string
		for _, r := range resp.Results {
			got = append(got, r.SourceURI)
		}
		t.Fatalf("results %q, want fold.md first", got)
	}
}
