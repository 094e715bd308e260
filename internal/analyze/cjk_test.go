package analyze

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestKeywordsAndQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, keywords, query string }{
		// A Chinese sentence with a Latin word glued to it: the word set apart,
		// the run as overlapping bigrams.
		{"PostgreSQL的连接池配置方法。", "PostgreSQL 的连 连接 接池 池配 配置 置方 方法", " PostgreSQL 的连 连接 接池 池配 配置 置方 方法 。"},
		// Japanese: kanji, hiragana and katakana in one run; ー inside the word.
		// A question's bigrams holding hiragana (particles, endings) are left
		// out when it has others; documents keep them all.
		{"データベースの接続", "デー ータ タベ ベー ース スの の接 接続", " デー ータ タベ ベー ース 接続 "},
		{"富士山の高さは何メートルですか？", "富士 士山 山の の高 高さ さは は何 何メ メー ート トル ルで です すか",
			" 富士 士山 メー ート トル ？"},
		// So are the bigrams of question words in a Japanese question.
		{"営業時間は何時から何時までですか", "営業 業時 時間 間は は何 何時 時か から ら何 何時 時ま まで でで です すか", " 営業 業時 時間 "},
		// A question in hiragana alone keeps every bigram.
		{"おすすめはなんですか", "おす すす すめ めは はな なん んで です すか", " おす すす すめ めは はな なん んで です すか "},
		// Mixed-script identifiers.
		{"pg_stat_activity表记录会话", "pgstatactivity activity 表记 记录 录会 会话", "pg_stat_ activity 表记 记录 录会 会话 \npgstatactivity"},
		// A word in another script is content too: beside it the bigrams
		// of hiragana alone are left out ("apt-pinningとは何ですか？" asks
		// about apt-pinning; とは and すか are its form), those holding a
		// kanji stay (使い方, a word with okurigana).
		{"Python3の使い方", "Python3 の使 使い い方", " Python3 の使 使い い方 "},
		{"apt-pinningとは何ですか？", "apt-pinning とは は何 何で です すか", " apt-pinning ？"},
		{"GPT-4模型是什么？", "GPT-4 模型 型是 是什 什么", " GPT-4 模型 型是 ？"},
		// A Chinese question's bigrams touching a question word or a final
		// particle are left out when it has others; a question of question
		// words alone keeps them; a word that holds such a character stays.
		{"红烧肉怎么做？", "红烧 烧肉 肉怎 怎么 么做", " 红烧 烧肉 ？"},
		{"如何验证备份文件", "如何 何验 验证 证备 备份 份文 文件", " 验证 证备 备份 份文 文件 "},
		{"什么？", "", " 什么 ？"},
		{"吗啡和海洛因有什么区别？", "吗啡 啡和 和海 海洛 洛因 因有 有什 什么 么区 区别", " 吗啡 啡和 和海 海洛 洛因 因有 区别 ？"},
		{"这样做对吗", "这样 样做 做对 对吗", " 这样 样做 做对 "},
		{"v1.2版本", "v1.2 版本", " v1.2 版本 "},
		// Standalone words of one or two CJK characters: PostgreSQL already
		// indexes them as they are, so documents add nothing; a question sends
		// them as they are.
		{"「設定」する", "", "「 設定 」 "},
		{"表", "", " 表 "},
		// Hangul is bigrammed as well (Korean particles attach to words).
		{"한국어를 배우다", "한국 국어 어를 배우 우다", " 한국 국어 어를   배우 우다 "},
		// Thai puts spaces between phrases, not words: each phrase's run is
		// bigrammed, its combining vowels and tone marks inside the bigrams.
		{"น้ำชา ร้อน", "น้ ้ำ ำช ชา ร้ ้อ อน", " น้ ้ำ ำช ชา   ร้ ้อ อน "},
		// Joiners at a segment's ends stay outside it.
		{"-表示-", "", "- 表示 -"},
		// No CJK: the text unchanged, compound identifiers added.
		{"SET work_mem = '64MB';", "workmem", "SET work_mem = '64MB';\nworkmem"},
		{"plain English text", "", "plain English text"},
	} {
		if got := Keywords(tc.text); got != tc.keywords {
			t.Errorf("Keywords(%q) = %q, want %q", tc.text, got, tc.keywords)
		}
		if got := Query(tc.text); got != tc.query {
			t.Errorf("Query(%q) = %q, want %q", tc.text, got, tc.query)
		}
	}
}

func TestKeywordsKeepsRepeats(t *testing.T) {
	t.Parallel()
	// Term frequency is BM25's evidence: a repeated bigram is kept.
	got := strings.Fields(Keywords("连接池，连接池"))
	if want := []string{"连接", "接池", "连接", "接池"}; !slices.Equal(got, want) {
		t.Fatalf("Keywords = %q, want %q", got, want)
	}
}

func TestUnspaced(t *testing.T) {
	t.Parallel()
	for r, want := range map[rune]bool{'a': false, 'é': false, 'Ж': false, '4': false, '。': false, '・': false,
		'ह': false, 'ع': false, 'א': false,
		'中': true, '々': true, 'の': true, 'デ': true, 'ー': true, 'ｰ': true, 'ﾃ': true, 'ﾞ': true, '한': true, 'ᄀ': true,
		// Thai, Lao, Khmer and Myanmar, their combining vowels and tone marks included.
		'ก': true, '้': true, 'ั': true, 'ເ': true, 'ົ': true, 'ក': true, '្': true, 'မ': true, 'ြ': true} {
		if Unspaced(r) != want {
			t.Errorf("Unspaced(%q) = %v, want %v", r, !want, want)
		}
	}
}

func TestScripts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []ScriptCount
	}{
		{"How do I configure the connection pool?", []ScriptCount{{"Latin", 7}}},
		{"如何配置连接池？", []ScriptCount{{"Han", 7}}},
		{"データベースの接続プールを設定する方法", []ScriptCount{{"Katakana", 9}, {"Han", 6}, {"Hiragana", 4}}},
		{"pg_stat_activity表是什么", []ScriptCount{{"Han", 4}, {"Latin", 3}}},
		{"Что такое MVCC?", []ScriptCount{{"Cyrillic", 2}, {"Latin", 1}}},
		{"café naïve", []ScriptCount{{"Latin", 2}}},
		{"42 + 7 = ?", nil},
	} {
		if got := Scripts(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("Scripts(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// cjkRuns returns the bigrams (or unigrams) of the maximal CJK runs of text,
// in order: what Query must send for them.
func cjkRuns(text string) []string {
	var out, run []string
	flush := func() {
		if len(run) == 1 {
			out = append(out, run[0])
		}
		for i := 0; i+1 < len(run); i++ {
			out = append(out, run[i]+run[i+1])
		}
		run = run[:0]
	}
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if Unspaced(r) && !(r == utf8.RuneError && w == 1) {
			run = append(run, text[i:i+w])
		} else {
			flush()
		}
		i += w
	}
	flush()
	return out
}

// FuzzQuery checks the CJK analysis on arbitrary text: no panic; in the
// outputs of Query and Keywords every whitespace-separated field that has a
// CJK character is one or two CJK characters and nothing else (so
// PostgreSQL's parser sees each bigram as a word of its own); Query's CJK
// fields are exactly the bigrams of the text's CJK runs, in order; Keywords'
// CJK fields are a subsequence of them and of those of its folded
// fullwidth and halfwidth stretches; the text's non-CJK characters
// outside its CJK-bearing segments reach Query unchanged; valid UTF-8 stays
// valid.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"", "PostgreSQL的连接池配置方法。", "pg_stat_activity表", "Python3の使い方", "GPT-4模型",
		"データベース", "ﾃﾞｰﾀ", "한국어를 배우다", "a-表-b", "-表示-", "v1.2版本", "表", "中\xff文", "日本_語", "x\u0301中",
		"。。。", "effective_io_concurrency", "e\u3099", "<A>0", "How much is <b>x</b>?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, k := Query(text), Keywords(text)
		cjkFields := func(out string) []string {
			var got []string
			for _, fld := range strings.Fields(out) {
				if !strings.ContainsFunc(fld, Unspaced) {
					continue
				}
				if n := utf8.RuneCountInString(fld); n > 2 || !allCJK(fld) {
					t.Fatalf("%q: field %q of %q is not one or two CJK characters", text, fld, out)
				}
				got = append(got, fld)
			}
			return got
		}
		want := cjkRuns(text)
		// Query leaves out the bigrams of a question's form (particles in
		// hiragana, question words) when it has content besides: what it
		// sends is the runs' bigrams in order, all of them for a text
		// without hiragana and question words.
		got := cjkFields(q)
		rest := slices.Clone(want)
		for _, fld := range got {
			i := slices.Index(rest, fld)
			if i < 0 {
				t.Fatalf("%q: Query %q sends %q, not a bigram of the text in order (%q)", text, q, fld, want)
			}
			rest = rest[i+1:]
		}
		if !hasHiragana(text) && !strings.ContainsAny(text, interrogatives+"怎什哪如为多谁是吗呢") && !slices.Equal(got, want) {
			t.Fatalf("%q: Query %q sends %q, want the bigrams %q", text, q, got, want)
		}
		// Keywords indexes the folded forms of the text's fullwidth and
		// halfwidth stretches after the text's own.
		// And, between them, a quoted attribute's short CJK word inside
		// a tag-like span (tagWords), which the parser drops with it.
		var tagged []string
		for _, f := range strings.Fields(tagWords(TagText(text))) {
			if strings.ContainsFunc(f, Unspaced) {
				tagged = append(tagged, f)
			}
		}
		rest = append(append(slices.Clone(want), tagged...), cjkRuns(widthRuns(text))...)
		for _, fld := range cjkFields(k) {
			i := slices.Index(rest, fld)
			if i < 0 {
				t.Fatalf("%q: Keywords %q has %q, not a bigram of the text in order (%q)", text, k, fld, want)
			}
			rest = rest[i+1:]
		}
		// Without CJK, Query sends the text as it reads it: the quantity
		// word left out, tags' brackets blanked (untag), as the parser
		// would drop them with their words.
		if !hasCJK(text) && !strings.HasPrefix(q, untag(dropQuantityWord(text))) {
			t.Fatalf("%q: Query %q changed text without CJK", text, q)
		}
		if utf8.ValidString(text) && (!utf8.ValidString(q) || !utf8.ValidString(k)) {
			t.Fatalf("%q: invalid UTF-8 output %q / %q", text, q, k)
		}
	})
}

func BenchmarkKeywords(b *testing.B) {
	// A 1,000-character chunk of the PostgreSQL manual's configuration
	// chapter, and a Chinese passage of about the same length in bytes.
	for name, text := range map[string]string{
		"english": strings.Repeat("Sets the number of concurrent disk I/O operations (effective_io_concurrency) that "+
			"PostgreSQL expects can be executed simultaneously; see also maintenance_io_concurrency and "+
			"max_parallel_workers_per_gather. ", 5),
		"chinese": strings.Repeat("连接池在应用程序与数据库之间复用已经建立的连接，减少每次请求建立新连接的开销。", 9),
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if Keywords(text) == "" {
					b.Fatal("no keywords")
				}
			}
		})
	}
}

// The word after "how" that asks for a quantity is the question's form:
// Query drops it, whatever its case, and keeps everything else.
func TestQueryDropsTheQuantityForm(t *testing.T) {
	for in, want := range map[string]string{
		"How much does the oscillator drift?":   "How does the oscillator drift?",
		"how MANY workers and how long a wait?": "how workers and how a wait?",
		"Is the drift long?":                    "Is the drift long?",
		"Howmuch is it?":                        "Howmuch is it?",
	} {
		if got := Query(in); got != want {
			t.Errorf("Query(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKeywordsSplitsCJKInTags(t *testing.T) {
	// A tag-like span's words are indexed as the parser would drop them;
	// a CJK run inside one is indexed as its bigrams, as anywhere else.
	for text, want := range map[string][]string{
		"<A000表示设置>":          {"A000", "表示", "示设", "设置"},
		"see <b>数据库</b> here": {"b", "数据", "据库"},
		"<x 한국어>":             {"한국", "국어"}, // no tag to the parser, which indexes x itself
	} {
		got := strings.Fields(Keywords(text))
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("Keywords(%q) = %q, want %q among its terms", text, got, w)
			}
		}
		for _, f := range got {
			if strings.ContainsFunc(f, Unspaced) && (utf8.RuneCountInString(f) > 2 || !allCJK(f)) {
				t.Errorf("Keywords(%q) = %q: term %q is not one or two CJK characters", text, got, f)
			}
		}
	}
}

func TestKeywordsTagWithShortCJKWord(t *testing.T) {
	// The parser drops a tag with its words; a two-character CJK word in
	// a quoted attribute value, which it would index outside a tag, is
	// indexed by Keywords. Outside quotes the parser does not read the
	// span as a tag and indexes the word itself: it is not added again.
	if got := strings.Fields(Keywords("see <x a='表示'> here")); !slices.Contains(got, "表示") {
		t.Errorf("Keywords = %q, want 表示 among its terms", got)
	}
	if got := strings.Fields(Keywords("see <x 表示> here")); slices.Contains(got, "表示") {
		t.Errorf("Keywords = %q: 表示 added again", got)
	}
	// In a tag's name the parser drops it too ("<a_表示>").
	if got := strings.Fields(Keywords("see <a_表示> here")); !slices.Contains(got, "表示") {
		t.Errorf("Keywords = %q, want 表示 among its terms", got)
	}
}

func TestWordCount(t *testing.T) {
	for text, want := range map[string]int{
		"":                       0,
		"plain English words":    3,
		"a, b. c":                3,
		"数据库的连接池":                3, // seven characters
		"PostgreSQL的连接池配置":       4, // PostgreSQL, then six characters
		"see 表 and GPT-4模型 here": 6,
		"「設定」":                   1,
	} {
		if got := WordCount(text); got != want {
			t.Errorf("WordCount(%q) = %d, want %d", text, got, want)
		}
	}
}
