package extract

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestIndexTableIsLinksOnly: an index laid out as a table, each cell a
// heading and its links (the Lua manual's contents.html: an introduction,
// a list of chapters and 460 function names in three cells), is a page of
// links, no document; a table of links with a description in each row
// stays a document.
func TestIndexTableIsLinksOnly(t *testing.T) {
	t.Parallel()
	var links strings.Builder
	for i := range 150 {
		fmt.Fprintf(&links, "<A HREF=\"manual.html#pdf-f%d\">string.f%d</A><BR>\n", i, i)
	}
	page := `<HTML><HEAD><TITLE>Reference Manual - contents</TITLE></HEAD><BODY>
<H1>Reference Manual</H1>
<P>The reference manual is the official definition of the language. For an introduction, see the book.
<H2><A NAME="index">Index</A></H2>
<TABLE WIDTH="100%"><TR VALIGN="top">
<TD><H3>Lua functions</H3><P>` + links.String() + `</TD>
<TD><H3>C API</H3><P>` + links.String() + `</TD>
</TR></TABLE></BODY></HTML>`
	if _, err := Extract(TypeHTML, []byte(page)); !errors.Is(err, ErrLinksOnly) {
		t.Errorf("an index table: %v, want ErrLinksOnly", err)
	}
	var rows strings.Builder
	for i := range 70 {
		fmt.Fprintf(&rows, "<TR><TD><A HREF=\"f%d.html\">f%d</A></TD><TD>Returns the %dth value of the table, or nil when the table has fewer entries.</TD></TR>\n", i, i, i)
	}
	summary := `<HTML><HEAD><TITLE>Functions</TITLE></HEAD><BODY><H1>Functions</H1><TABLE>` + rows.String() + `</TABLE></BODY></HTML>`
	if _, err := Extract(TypeHTML, []byte(summary)); err != nil {
		t.Errorf("a table of functions with descriptions: %v, want a document", err)
	}
}

// TestBookIndexIsLinksOnly: a back-of-book index (DocBook's bookindex.html:
// a definition list of terms, each with the titles of the sections that
// treat it as links) is a page of links although only about 60 % of its
// words are link text; a list of links each with a one-line description,
// with the same share of link text, stays a document.
func TestBookIndexIsLinksOnly(t *testing.T) {
	t.Parallel()
	var entries strings.Builder
	for i := range 120 {
		fmt.Fprintf(&entries, "<dt>term%d, <a class=\"indexterm\" href=\"page%d.html#id%d\">Section Title %d</a></dt>\n", i, i%30, i, i)
		if i%3 == 0 {
			fmt.Fprintf(&entries, "<dd><dl><dt>sub%d, <a class=\"indexterm\" href=\"page%d.html#s%d\">Other Section</a></dt></dl></dd>\n", i, i%7, i)
		}
	}
	page := `<html><head><title>Index</title></head><body><div class="index"><h1>Index</h1>
<div class="indexdiv"><h3>E</h3><dl>` + entries.String() + `</dl></div></div></body></html>`
	if _, err := Extract(TypeHTML, []byte(page)); !errors.Is(err, ErrLinksOnly) {
		t.Errorf("a book index: %v, want ErrLinksOnly", err)
	}
	var items strings.Builder
	for i := range 80 {
		fmt.Fprintf(&items, "<li><a href=\"f%d.html\">Section Title Number %d</a> returns the value it stores.</li>\n", i, i)
	}
	summary := `<html><head><title>Functions</title></head><body><main><h1>Functions</h1><ul>` + items.String() + `</ul></main></body></html>`
	if _, err := Extract(TypeHTML, []byte(summary)); err != nil {
		t.Errorf("links with a description each: %v, want a document", err)
	}
}

// TestChineseBookIndexIsLinksOnly: the rules of TestBookIndexIsLinksOnly
// hold for a page written in Chinese, whose words no blanks separate: a
// book index of Chinese terms and section titles is a page of links, and
// a list of links each with a one-line description stays a document.
func TestChineseBookIndexIsLinksOnly(t *testing.T) {
	t.Parallel()
	terms := []string{"连接池", "事务", "索引", "视图", "触发器", "序列", "模式", "角色", "权限", "备份", "复制", "日志"}
	titles := []string{"服务器配置", "并发控制", "索引类型", "创建视图", "触发器函数", "序列操作函数", "模式搜索路径", "数据库角色", "权限管理", "备份与恢复"}
	var entries strings.Builder
	for i := range 120 {
		fmt.Fprintf(&entries, "<dt>%s，<a class=\"indexterm\" href=\"page%d.html#id%d\">%s</a></dt>\n", terms[i%len(terms)], i%30, i, titles[i%len(titles)])
		if i%3 == 0 {
			fmt.Fprintf(&entries, "<dd><dl><dt>%s，<a class=\"indexterm\" href=\"page%d.html#s%d\">%s</a></dt></dl></dd>\n", terms[(i+5)%len(terms)], i%7, i, titles[(i+3)%len(titles)])
		}
	}
	page := `<html lang="zh"><head><title>索引</title></head><body><div class="index"><h1>索引</h1>
<div class="indexdiv"><h3>L</h3><dl>` + entries.String() + `</dl></div></div></body></html>`
	if _, err := Extract(TypeHTML, []byte(page)); !errors.Is(err, ErrLinksOnly) {
		t.Errorf("a Chinese book index: %v, want ErrLinksOnly", err)
	}
	var items strings.Builder
	for i := range 80 {
		fmt.Fprintf(&items, "<li><a href=\"f%d.html\">第%d个函数</a>返回它所存储的值，并在连接关闭时释放所有资源。</li>\n", i, i)
	}
	summary := `<html lang="zh"><head><title>函数</title></head><body><main><h1>函数</h1><ul>` + items.String() + `</ul></main></body></html>`
	if _, err := Extract(TypeHTML, []byte(summary)); err != nil {
		t.Errorf("Chinese links with a description each: %v, want a document", err)
	}
}
