package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestLongKatakanaQuestionIsSearched_hreview12: a question of one long
// katakana run (within RAGD_MAX_QUERY_CHARS) whose bigrams all occur in the
// tenant reaches the missing-terms probe's literal check, where
// store.KanaPattern builds an alternation of one variant per kana: 700 kana
// make a pattern PostgreSQL refuses ("regular expression is too complex"),
// and the whole search fails. A search of a valid query must not error.
func TestLongKatakanaQuestionIsSearched_hreview12(t *testing.T) {
	t.Parallel()
	tn, s := corpusTenant(t, "longkana", "simple", map[string]string{
		"ja/app.md": "# アプリ\n\nアプリアプリを起動します。",
	})
	q := strings.Repeat("アプリ", 300) // 900 characters, under the 4,000 limit
	if _, err := s.Search(context.Background(), tn, search.Request{Query: q}); err != nil {
		t.Fatalf("search of a %d-character katakana question: %v", len([]rune(q)), err)
	}
}

// TestKatakanaCompoundOfPresentWords_hreview12: Japanese runs katakana
// words together in a compound (データベースサーバー) that documents also
// write with a particle between them (データベースのサーバー). Every bigram
// but the junction's is in the document, as it was before the katakana
// probe; now the whole run is one "word" no document writes, so it is
// reported missing, its bigrams count as uncovered and an ordinary question
// the document answers is refused.
func TestKatakanaCompoundOfPresentWords_hreview12(t *testing.T) {
	t.Parallel()
	tn, s := corpusTenant(t, "kanacompound", "simple", map[string]string{
		"ja/db.md": "# データベースの設定\n\nデータベースのサーバーを起動するには、systemctl start postgresql を実行します。" +
			"サーバーの設定ファイルは /etc/postgresql にあります。",
	})
	resp, err := s.Search(context.Background(), tn, search.Request{Query: "データベースサーバーを起動するには？"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.MissingTerms) != 0 || resp.Confidence < tenant.DefaultRefuseBelow {
		t.Errorf("missing %q, confidence %.2f (%s); want nothing missing and at least %.2f",
			resp.MissingTerms, resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
	}
}
