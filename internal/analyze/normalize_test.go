package analyze

import "testing"

func TestNormalize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain ascii":                     "plain ascii",
		"cafe\u0301":                      "caf\u00e9",
		"quokka\u00adberry":               "quokkaberry",
		"lime\u200bgrove\u2060ok":         "limegroveok",
		"\ufeffbom":                       "bom",
		"क्\u200dष":                       "क्\u200dष",        // a joiner that shapes the word stays
		"dot \u2212Tpng \u2212\u2212help": "dot -Tpng --help", // groff's and TeX's option dashes are typed "-"
		"non\u2010breaking\u2011hyphen":   "non-breaking-hyphen",
		"\u22120.5 \u2013 1.5":            "-0.5 \u2013 1.5", // the en dash of a range stays
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestQuestionFoldsWidth: what a Japanese input method types in fullwidth
// or halfwidth forms is the word the documents write; Japanese and Chinese
// punctuation stays fullwidth. Documents keep their widths (Normalize).
func TestQuestionFoldsWidth(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ＡＰＴでパッケージを固定するには？": "APTでパッケージを固定するには？",
		"ｓｓｈ－ｋｅｙｇｅｎの使い方":    "ssh-keygenの使い方",
		"ｐｇ＿ｄｕｍｐ１５":         "pg_dump15",
		"ｱｯﾌﾟﾃﾞｰﾄの方法":       "アップデートの方法",
		"ﾊﾟｯｹｰｼﾞ管理｡":        "パッケージ管理。",
		"（注意）テスト：ａ－":        "（注意）テスト：a－", // punctuation stays; a dash after a letter is not between two
		"価格は１００円です。":        "価格は100円です。",
	} {
		if got := Question(in); got != want {
			t.Errorf("Question(%q) = %q, want %q", in, got, want)
		}
		if got := Normalize(in); got != in {
			t.Errorf("Normalize(%q) = %q, want it as written", in, got)
		}
	}
}
