package search_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// scriptCorpus is a small multilingual corpus: Chinese, Japanese and Thai
// passages on distinct topics, passages whose identifiers mix scripts, and
// one English page. Written for these tests (no word of one passage's topic
// appears in another's).
var scriptCorpus = map[string]string{
	"zh/pool.md": "# 连接池\n\n连接池在应用程序和数据库之间复用已经建立的连接。每次请求不必重新建立连接，" +
		"因此可以减少握手和认证的开销。连接池的大小应当根据数据库服务器的核心数量来设置，过大的连接池反而会降低吞吐量。",
	"zh/backup.md": "# 备份与恢复\n\n定期备份是防止数据丢失的最后一道防线。逻辑备份导出表结构和数据，适合迁移到新版本；" +
		"物理备份复制数据目录，恢复速度更快。恢复之前应当先在测试环境中验证备份文件是否完整。",
	"zh/tea.md": "# 绿茶的冲泡\n\n冲泡绿茶时水温不宜过高，八十度左右最合适。茶叶放入杯中后先倒少量热水润茶，再加满水。" +
		"龙井和碧螺春都是著名的绿茶品种。",
	"zh/activity.md": "# 会话监控\n\npg_stat_activity表记录每个后端进程的当前查询和等待事件。运维人员可以据此找出长时间运行的查询并终止它们。",
	"zh/gpt.md":      "# 生成模型\n\nGPT-4模型可以根据提示生成文本，但回答可能包含错误，重要的结论需要人工核对。",
	"zh/faq.md":      "# 常见问题\n\n很多用户问数据库怎么升级。升级之前请先阅读发行说明，并在测试环境中演练一遍。",
	"ja/index.md": "# インデックスの作成\n\nインデックスは検索を速くするためのデータ構造です。大きなテーブルでは、" +
		"よく検索される列にインデックスを作成すると、全件を読む必要がなくなります。ただし、書き込みのたびにインデックスも" +
		"更新されるため、作りすぎると更新が遅くなります。",
	"ja/vacuum.md": "# バキュームの役割\n\n更新や削除で不要になった行は、すぐには消えません。バキュームはそれらの行の領域を回収し、" +
		"再利用できるようにします。自動バキュームを止めると、テーブルが膨張して性能が落ちます。",
	"ja/python.md": "# Python3の使い方\n\nPython3の仮想環境はvenvモジュールで作成します。プロジェクトごとに環境を分けると、" +
		"ライブラリのバージョンが衝突しません。",
	"th/tea.md": "# การชงชาเขียว\n\nการชงชาเขียวไม่ควรใช้น้ำเดือด อุณหภูมิน้ำที่เหมาะสมคือประมาณแปดสิบองศาเซลเซียส " +
		"ถ้าน้ำร้อนเกินไปชาจะมีรสขม",
	"th/backup.md": "# การสำรองข้อมูล\n\nควรสำรองข้อมูลเป็นประจำเพื่อป้องกันข้อมูลสูญหาย คำสั่ง pg_dump " +
		"ใช้ส่งออกฐานข้อมูลเป็นไฟล์สคริปต์ ก่อนกู้คืนควรตรวจสอบว่าไฟล์สำรองสมบูรณ์",
	"th/train.md": "# รถไฟฟ้า\n\nรถไฟฟ้าเปิดให้บริการตั้งแต่หกโมงเช้าจนถึงเที่ยงคืนทุกวัน " +
		"ผู้โดยสารสามารถใช้บัตรโดยสารแบบเติมเงินได้",
	"en/pool.md": "# Connection pooling\n\nA connection pool keeps database connections open and hands them to requests, " +
		"so that each request skips the handshake and authentication. Size the pool after the server's CPU cores: " +
		"a pool far larger than that lowers throughput.",
}

var (
	useLiteOnce sync.Once
	useLite     *embed.Local
	useLiteErr  error
)

// scriptTenant ingests scriptCorpus through the production pipeline (the
// local model, default settings) into a new tenant with text-search
// configuration tsConfig, and returns it with a searcher.
func scriptTenant(t *testing.T, tsConfig string) (tenant.Tenant, *search.Searcher) {
	t.Helper()
	return corpusTenant(t, "scripts", tsConfig, scriptCorpus)
}

// corpusTenant ingests docs (source_uri → Markdown) through the production
// pipeline (the local model, default settings) into a new tenant named
// after slug with text-search configuration tsConfig, and returns it with a
// searcher wired as production wires it.
func corpusTenant(t *testing.T, slug, tsConfig string, docs map[string]string) (tenant.Tenant, *search.Searcher) {
	t.Helper()
	emb := testEmbedder(t)
	ctx := context.Background()
	pool := testdb.App(t)
	p, err := ingest.New(pool, emb, 1)
	if err != nil {
		t.Fatal(err)
	}
	tn := testdb.NewTenant(t, slug, tsConfig)
	tt, err := tenant.Load(ctx, pool, tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	for uri, text := range docs {
		if _, err := p.Upsert(ctx, tt, ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte(text)}); err != nil {
			t.Fatalf("ingest %s: %v", uri, err)
		}
	}
	if tt, err = tenant.Load(ctx, pool, tn.ID); err != nil {
		t.Fatal(err)
	}
	// The model's registry row, as the production wiring reads it (its id
	// and the vector leg's fusion prior).
	m, err := store.New().GetEmbeddingModel(ctx, pool, emb.Model())
	if err != nil {
		t.Fatal(err)
	}
	return tt, &search.Searcher{Pool: pool, Embedder: emb, ModelID: m.ID, VectorPrior: float64(m.VectorWeight)}
}

// TestCJKQuestionsFindTheirDocument: Chinese, Japanese, Thai and
// mixed-script questions find the document that answers them through the keyword leg,
// under the english and the simple configuration alike; a question mostly
// in CJK leaves out the local model's vector leg and says why; English
// questions and Latin identifiers keep both legs.
func TestCJKQuestionsFindTheirDocument(t *testing.T) {
	t.Parallel()
	for _, cfg := range []string{"english", "simple"} {
		t.Run(cfg, func(t *testing.T) {
			t.Parallel()
			tn, s := scriptTenant(t, cfg)
			for _, tc := range []struct {
				question, want string
				// reason is the vector leg's expected degradation ("" = the leg runs).
				reason string
			}{
				{"连接池的大小应该怎么设置？", "zh/pool.md", "the embedding model use-lite does not represent Han script (100% of the question)"},
				{"如何验证备份文件是否完整", "zh/backup.md", "the embedding model use-lite does not represent Han script (100% of the question)"},
				{"绿茶用多少度的水冲泡", "zh/tea.md", "the embedding model use-lite does not represent Han script (100% of the question)"},
				{"インデックスを作りすぎるとどうなりますか？", "ja/index.md",
					"the embedding model use-lite does not represent Hiragana, Katakana and Han scripts (100% of the question)"},
				{"自動バキュームを止めるとどうなる", "ja/vacuum.md",
					"the embedding model use-lite does not represent Hiragana, Katakana and Han scripts (100% of the question)"},
				// Mixed-script identifiers: the Latin part is indexed as a word
				// (and as a compound identifier), the CJK part as bigrams. The
				// shares count Latin words and CJK characters: 5 Han of 3 + 5,
				// 2 Hiragana + 6 Han of 1 + 8, 10 Han of 1 + 10.
				{"pg_stat_activity表记录什么", "zh/activity.md", "the embedding model use-lite does not represent Han script (62% of the question)"},
				{"Python3の仮想環境の作成", "ja/python.md",
					"the embedding model use-lite does not represent Han and Hiragana scripts (88% of the question)"},
				{"GPT-4模型的回答需要核对吗", "zh/gpt.md", "the embedding model use-lite does not represent Han script (90% of the question)"},
				// Thai, written without spaces between words, is bigrammed too.
				{"ชาเขียวควรใช้น้ำอุณหภูมิเท่าไร", "th/tea.md", "the embedding model use-lite does not represent Thai script (100% of the question)"},
				{"จะส่งออกฐานข้อมูลเป็นไฟล์ได้อย่างไร", "th/backup.md", "the embedding model use-lite does not represent Thai script (100% of the question)"},
				{"รถไฟฟ้าเปิดกี่โมง", "th/train.md", "the embedding model use-lite does not represent Thai script (100% of the question)"},
				// A Latin identifier alone finds the Chinese page that glues it
				// to a Han character, with both legs (the page itself only
				// through the keyword leg: the model does not represent it).
				{"pg_stat_activity", "zh/activity.md", ""},
				{"How large should a connection pool be?", "en/pool.md", ""},
			} {
				resp, err := s.Search(context.Background(), tn, search.Request{Query: tc.question, TopK: 3})
				if err != nil {
					t.Fatal(err)
				}
				if len(resp.Results) == 0 {
					t.Errorf("%q: no results", tc.question)
					continue
				}
				top := resp.Results[0]
				if top.SourceURI != tc.want || top.KeywordRank == nil || *top.KeywordRank != 1 {
					t.Errorf("%q: top result %s (keyword rank %v), want %s first in the keyword leg", tc.question, top.SourceURI,
						top.KeywordRank, tc.want)
				}
				for _, r := range resp.Results[1:] {
					if r.SourceURI == tc.want {
						continue
					}
					if r.KeywordScore != nil && *r.KeywordScore >= *top.KeywordScore {
						t.Errorf("%q: %s scores %.3f ≥ the answer's %.3f", tc.question, r.SourceURI, *r.KeywordScore, *top.KeywordScore)
					}
				}
				if tc.reason == "" {
					if resp.Degraded || len(resp.DegradedReasons) > 0 || resp.Timings["embed"] == 0 {
						t.Errorf("%q: want both legs, got degraded %v %v", tc.question, resp.Degraded, resp.DegradedReasons)
					}
					// The vector leg never returns a chunk written in scripts
					// the model does not represent: its vector is noise.
					for _, r := range resp.Results {
						if r.VectorRank != nil && !strings.HasPrefix(r.SourceURI, "en/") {
							t.Errorf("%q: %s has vector rank %d, but use-lite does not represent it", tc.question, r.SourceURI, *r.VectorRank)
						}
					}
					if strings.HasPrefix(tc.want, "en/") && top.VectorRank == nil {
						t.Errorf("%q: the English page has no vector rank", tc.question)
					}
					continue
				}
				want := []search.Degradation{{Leg: search.LegVector, Reason: tc.reason}}
				if !resp.Degraded || len(resp.DegradedReasons) != 1 || resp.DegradedReasons[0] != want[0] {
					t.Errorf("%q: degraded %v %+v, want %+v", tc.question, resp.Degraded, resp.DegradedReasons, want)
				}
				for _, r := range resp.Results {
					if r.VectorRank != nil {
						t.Errorf("%q: %s has a vector rank although the leg was left out", tc.question, r.SourceURI)
					}
				}
				if _, ok := resp.Timings["embed"]; ok {
					t.Errorf("%q: the question was embedded although the leg was left out", tc.question)
				}
				// The vector leg asked for alone (an evaluation's ablation) has
				// nothing to give, and gives nothing: the keyword leg's results
				// in its place would be reported as the vector leg's.
				only, err := s.Search(context.Background(), tn, search.Request{Query: tc.question, TopK: 3, Only: search.LegVector})
				if err != nil {
					t.Fatal(err)
				}
				if len(only.Results) != 0 || !only.Degraded || len(only.DegradedReasons) != 1 || only.DegradedReasons[0] != want[0] {
					t.Errorf("%q, vector leg alone: %d results, degraded %v %+v; want none, degraded %+v", tc.question,
						len(only.Results), only.Degraded, only.DegradedReasons, want[0])
				}
			}
		})
	}
}

// TestCJKOffTopicQuestionIsRefused: a Chinese question that no document
// answers shares no bigram with the corpus, so no chunk is retrieved and the
// answer is an honest refusal. (Before bigrams the local model's vector leg
// returned every CJK chunk at cosine distance 0 and the answer quoted one.)
func TestCJKOffTopicQuestionIsRefused(t *testing.T) {
	t.Parallel()
	tn, s := scriptTenant(t, "")
	svc := &ask.Service{Searcher: s, Answerer: answer.New(nil)}
	ctx := context.Background()
	res, err := svc.Ask(ctx, tn, search.Request{Query: "火星探测器靠哪种燃料飞行？"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Refused || res.RefusalReason != ask.ReasonNoResults || len(res.Sources) != 0 {
		t.Errorf("off-topic question: refused %v (%s), %d sources; want a refusal with no sources", res.Refused, res.RefusalReason, len(res.Sources))
	}
	if len(res.DegradedReasons) != 1 || res.DegradedReasons[0].Leg != search.LegVector {
		t.Errorf("degraded reasons %+v, want the vector leg's", res.DegradedReasons)
	}
	// The same service answers an on-topic question from the right page.
	res, err = svc.Ask(ctx, tn, search.Request{Query: "连接池过大会怎样？"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Citations) == 0 || res.Citations[0].SourceURI != "zh/pool.md" || !strings.Contains(res.Answer, "吞吐量") {
		t.Errorf("on-topic question: %+v", res)
	}
}

// TestChineseQuestionWordsAreNotEvidence: a Chinese question that shares
// only its question word (怎么, how) with a page is refused, and the page's
// own question is answered from it. (The question word's bigrams made the
// off-topic question look covered: a trial's "红烧肉怎么做？" was answered
// from a Linux manual at confidence 0.62.)
func TestChineseQuestionWordsAreNotEvidence(t *testing.T) {
	t.Parallel()
	tn, s := scriptTenant(t, "")
	svc := &ask.Service{Searcher: s, Answerer: answer.New(nil)}
	ctx := context.Background()
	res, err := svc.Ask(ctx, tn, search.Request{Query: "红烧肉怎么做？"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Refused {
		t.Errorf("off-topic question answered (confidence %.2f): %q", res.Confidence, res.Answer)
	}
	res, err = svc.Ask(ctx, tn, search.Request{Query: "数据库怎么升级？"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Citations) == 0 || res.Citations[0].SourceURI != "zh/faq.md" {
		t.Errorf("on-topic question: refused %v (%s, confidence %.2f), citations %+v", res.Refused, res.RefusalReason, res.Confidence, res.Citations)
	}
}

// TestJapaneseOffTopicQuestionIsRefused: a Japanese question shares its
// particles and endings (の, は, です) with every Japanese page; they are
// not evidence that a page answers it, and an absent kanji or katakana word
// (富士山, メートル) is. Before, the question's bigrams holding hiragana
// matched the corpus and every absent bigram was ignored, so the question
// looked fully covered and was answered from an unrelated page.
func TestJapaneseOffTopicQuestionIsRefused(t *testing.T) {
	t.Parallel()
	tn, s := scriptTenant(t, "")
	svc := &ask.Service{Searcher: s, Answerer: answer.New(nil)}
	ctx := context.Background()
	for _, q := range []string{"富士山の高さは何メートルですか？", "明日の天気はどうなりますか？"} {
		res, err := svc.Ask(ctx, tn, search.Request{Query: q}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Refused {
			t.Errorf("%s: answered (confidence %.2f): %q", q, res.Confidence, res.Answer)
		}
	}
	// On-topic questions with the same particles, one with a question word
	// (何時, in no page), are answered from their page.
	for q, page := range map[string]string{"バキュームを止めるとどうなりますか？": "ja/vacuum.md", "インデックスを作りすぎると何が起きますか？": "ja/index.md"} {
		res, err := svc.Ask(ctx, tn, search.Request{Query: q}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Refused || len(res.Citations) == 0 || res.Citations[0].SourceURI != page {
			t.Errorf("%s: refused %v (%s, confidence %.2f), citations %+v; want an answer from %s", q, res.Refused, res.RefusalReason, res.Confidence, res.Citations, page)
		}
	}
}

// TestThaiQuestionIsAnswered: a Thai question is answered from its page by
// the sentence that answers it, and one no page answers is refused. (Before
// Thai was bigrammed, every Thai phrase was one lexeme and no Thai question
// matched any document.)
func TestThaiQuestionIsAnswered(t *testing.T) {
	t.Parallel()
	tn, s := scriptTenant(t, "")
	svc := &ask.Service{Searcher: s, Answerer: answer.New(nil)}
	ctx := context.Background()
	res, err := svc.Ask(ctx, tn, search.Request{Query: "ชาเขียวควรใช้น้ำอุณหภูมิเท่าไร"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Citations) == 0 || res.Citations[0].SourceURI != "th/tea.md" || !strings.Contains(res.Answer, "แปดสิบองศา") {
		t.Errorf("on-topic question: refused %v (%s), answer %q, citations %+v", res.Refused, res.RefusalReason, res.Answer, res.Citations)
	}
	// "What is the highest mountain in the world?"
	res, err = svc.Ask(ctx, tn, search.Request{Query: "ภูเขาที่สูงที่สุดในโลกคืออะไร"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Refused {
		t.Errorf("off-topic question answered (confidence %.2f): %q", res.Confidence, res.Answer)
	}
}

// TestKatakanaWordIsLookedUpWhole: each character bigram of a katakana
// word no document writes matches other words (アプ of アプリケーション,
// プト of スクリプト); the word is looked up whole, reported missing and
// counts as uncovered, so the question is refused with the word named. A
// katakana word the documents write with or without prolonged sound marks,
// middle dots or in halfwidth forms, or a long one spelt with another kana
// (リポジトリ, レポジトリ), is present.
func TestKatakanaWordIsLookedUpWhole(t *testing.T) {
	t.Parallel()
	tn, s := corpusTenant(t, "katakana", "simple", map[string]string{
		"ja/app.md": "# アプリケーションの起動\n\nアプリケーションはスクリプトから起動します。起動スクリプトは設定ファイルを読み、" +
			"ネットワークインターフェースを初期化してからサービスを開始します。",
		"ja/repo.md": "# レポジトリ\n\nソースコードはレポジトリで管理します。ローカル・コピーを作るには、レポジトリを複製してください。",
	})
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		missing  []string
	}{
		{"アプトとは何ですか？", []string{"アプト"}},
		{"スマートフォンでアプリケーションを起動するには？", []string{"スマートフォン"}},
		{"ネットワークインタフェースを初期化するのはどのスクリプトですか？", nil},
		{"ﾈｯﾄﾜｰｸｲﾝﾀｰﾌｪｰｽを初期化するには？", nil},
		{"ローカルコピーを作るには？", nil},
		{"リポジトリを複製するには？", nil},
	} {
		resp, err := s.Search(ctx, tn, search.Request{Query: tc.question})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing terms %q, want %q", tc.question, resp.MissingTerms, tc.missing)
		}
		if len(tc.missing) == 0 {
			continue
		}
		if resp.Confidence >= tenant.DefaultRefuseBelow || !strings.Contains(resp.ConfidenceReason, "“"+tc.missing[0]+"”") {
			t.Errorf("%q: confidence %.2f (%s); want below %.2f, naming %q", tc.question, resp.Confidence, resp.ConfidenceReason,
				tenant.DefaultRefuseBelow, tc.missing[0])
		}
	}
}
