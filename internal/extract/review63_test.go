package extract

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/analyze"
)

// A review of 5974b34 (analyze.WordCount in page-level rules): each test
// is a defect it found, fixed.
//
// Found in review: WordCount counts every rune of an Unspaced run, the
// combining vowels, tone marks and subscript signs of Thai, Lao, Khmer and
// Myanmar included, as half a word, so a Thai sentence counts 3-4 times
// its words. A Thai texi2any-style redirect stub of about 25 words, which
// the English one of the same length is refused as (ErrRedirect), is now
// stored as a document (before 5974b34: refused).
func TestR63ThaiRedirectStubIsRefused(t *testing.T) {
	t.Parallel()
	en := `<html><head><title>Options</title><meta http-equiv="Refresh" content="0; url=Options.html#D"></head>
<body><p>The node you are looking for is at <a href="Options.html#D">Description of Options</a>. Your browser should take you there at once; if it does not, follow the link.</p></body></html>`
	th := `<html><head><title>ตัวเลือก</title><meta http-equiv="Refresh" content="0; url=Options.html#D"></head>
<body><p>โหนดที่คุณกำลังค้นหาอยู่ที่ <a href="Options.html#D">คำอธิบายตัวเลือก</a> เบราว์เซอร์ของคุณจะพาคุณไปที่นั่นทันที หากไม่เป็นเช่นนั้น ให้คลิกลิงก์</p></body></html>`
	if _, err := Extract(TypeHTML, []byte(en)); !errors.Is(err, ErrRedirect) {
		t.Fatalf("English stub: %v, want ErrRedirect", err)
	}
	if _, err := Extract(TypeHTML, []byte(th)); !errors.Is(err, ErrRedirect) {
		t.Errorf("Thai stub of the same length: %v, want ErrRedirect (WordCount of its text: %d; of the English: %d)", err,
			analyze.WordCount("โหนดที่คุณกำลังค้นหาอยู่ที่ คำอธิบายตัวเลือก เบราว์เซอร์ของคุณจะพาคุณไปที่นั่นทันที หากไม่เป็นเช่นนั้น ให้คลิกลิงก์"),
			analyze.WordCount("The node you are looking for is at Description of Options. Your browser should take you there at once; if it does not, follow the link."))
	}
}

// Found in review: a Sphinx landing page (a title, "Contents:", a toctree)
// is ErrLinksOnly in English and was in Thai and Korean before 5974b34;
// now the Thai title counts 3x its words and the Korean one (Korean is
// written with spaces between words, so blanks counted it right) ~1.5x,
// both above tocPageWords, and the page is stored.
func TestR63TocLandingPageInThaiAndKorean(t *testing.T) {
	t.Parallel()
	page := func(lang, title, contents string) string {
		return `<html lang="` + lang + `"><head><title>frob</title></head><body><div class="body" role="main">
<section id="welcome"><h1>` + title + `</h1><p>` + contents + `</p>
<div class="toctree-wrapper compound"><ul>
<li class="toctree-l1"><a class="reference internal" href="frob.html">1. Reading</a></li>
<li class="toctree-l1"><a class="reference internal" href="validate.html">2. Validation</a></li>
</ul></div></section></div></body></html>`
	}
	for _, tc := range []struct{ lang, title, contents string }{
		{"en", "Welcome to the frob configuration file library documentation!", "Contents:"},
		{"th", "ยินดีต้อนรับสู่เอกสารของ frob", "สารบัญ:"},
		{"ko", "frob 설정 파일 라이브러리 문서에 오신 것을 환영합니다!", "목차:"},
	} {
		if _, err := Extract(TypeHTML, []byte(page(tc.lang, tc.title, tc.contents))); !errors.Is(err, ErrLinksOnly) {
			t.Errorf("%s landing page %q: %v, want ErrLinksOnly (WordCount %d, tocPageWords %d)", tc.lang, tc.title, err,
				analyze.WordCount(tc.title+"\n"+tc.contents), tocPageWords)
		}
	}
}

// Found in review: "Shares of words then mean the same in Chinese as in
// English" does not hold: a three-character word (数据库, 连接池, 触发器,
// the commonest length of a technical term) counts two words, so a list
// of links to terms, each with a short description, is a document in
// English and a book index (ErrLinksOnly) in Chinese. Before 5974b34 the
// Chinese page was a document (blank-separated words: under
// indexPageWords).
func TestR63ChineseGlossaryListStaysADocument(t *testing.T) {
	t.Parallel()
	type entry struct{ en, enDesc, zh, zhDesc string }
	es := []entry{
		{"Database", "storage", "数据库", "存储"},
		{"Trigger", "callback", "触发器", "回调"},
		{"Server", "host", "服务器", "主机"},
		{"Sequence", "counter", "序列号", "计数"},
	}
	var en, zh strings.Builder
	for i := range 80 {
		e := es[i%len(es)]
		fmt.Fprintf(&en, "<li><a href=\"t%d.html\">%s</a>: %s</li>\n", i, e.en, e.enDesc)
		fmt.Fprintf(&zh, "<li><a href=\"t%d.html\">%s</a>：%s</li>\n", i, e.zh, e.zhDesc)
	}
	wrap := func(title, items string) string {
		return `<html><head><title>` + title + `</title></head><body><main><h1>` + title + `</h1><ul>` + items + `</ul></main></body></html>`
	}
	if _, err := Extract(TypeHTML, []byte(wrap("Glossary", en.String()))); err != nil {
		t.Fatalf("English glossary: %v, want a document", err)
	}
	if _, err := Extract(TypeHTML, []byte(wrap("术语表", zh.String()))); err != nil {
		t.Errorf("Chinese glossary of the same entries: %v, want a document as in English", err)
	}
}
