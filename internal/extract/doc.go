// Package extract turns an uploaded document (HTML, Markdown, plain text,
// PDF or DOCX) into plain text plus a flat list of structural blocks, and for
// a PDF the byte offset where each page's text begins (Document.Pages).
//
// # Why a flat block list with byte offsets
//
// Citations point into Document.Text, so Text is the single source of truth:
// every Block is a [Start, End) byte range of Text, never a copy. The chunker
// (package chunk) only needs to know where it may cut — between blocks,
// between table rows, between code lines, between sentences — and what the
// heading hierarchy is, so a flat sequence of typed ranges is enough and keeps
// both packages simple, fast and easy to test. A tree would only be rebuilt
// from levels anyway.
//
// # Layout of Text
//
// Blocks appear in document order, separated by a blank line ("\n\n"), except
// that a definition term (KindTerm) is followed by a single "\n" (it sits on
// the line above its definition) and consecutive list items are separated by a
// single "\n". Flowing text has its whitespace collapsed to single spaces;
// code keeps its whitespace verbatim; a table is one line per row with cells
// joined by " | ", header row(s) first. List items are prefixed with "- " or
// "N. " and indented two spaces per nesting level. Text has no leading or
// trailing whitespace except what a code block's first line carries.
//
// # Input hygiene
//
// Input must be UTF-8: callers decide the type with Detect (the bytes first —
// magic numbers and binary bytes — then the declared type, then the
// source_uri's extension, so binary is never read as text) and transcode
// text with ToUTF8 (BOM, declared charset, HTML meta charset; no guessing).
// A NUL byte or a high share of control characters means the upload is
// binary. Line endings
// are normalised to "\n", a leading byte-order mark is dropped and other C0
// control characters are removed before parsing.
//
// # HTML
//
// HTML is parsed with golang.org/x/net/html (the HTML5 algorithm, so broken
// markup is repaired the way browsers repair it). The walk keeps the main
// content (<main>, role=main, or a single <article>) and drops page chrome
// (nav, header/footer outside the main content, aside, forms, scripts, and
// elements whose class or id marks navigation: DocBook's navheader, navfooter
// and toc, "breadcrumb", "sidebar", ...). The parser refuses documents nested
// deeper than 512 elements; for those a streaming tokenizer fallback keeps the
// text, headings and pre blocks, so deeply nested garbage still extracts in
// linear time. Because the parser bounds depth at 512, the tree walk may
// recurse safely.
//
// # Markdown
//
// Markdown is parsed with goldmark (CommonMark plus GFM tables, strikethrough,
// task lists and autolinks). YAML front matter is removed and its title: used
// as the document title. Headings count as structure only at the top level;
// a heading inside a list or block quote becomes a paragraph. Raw HTML blocks
// go through the streaming HTML extractor. CommonMark reads any "<word>" as
// HTML, but documentation writes key names, placeholders and generics so
// (<Tab>, <file>, <buffer>, List<String>): an inline tag that names no HTML
// element, or an element written without its end tag ("the <script>
// argument"), is kept as the word it is, while real markup (<kbd>C</kbd>,
// <span class="k">, <br>) gives its text and a paired <script> or <style>
// none; an HTML block opened by such a word (a line that is only "<Leader>",
// a paragraph starting "<script> is") is read as Markdown (mdrawhtml.go).
//
// goldmark, like most CommonMark parsers, takes quadratic time on some
// inputs (thousands of "[" or "`" in one paragraph, dozens of container
// markers opening one line). A linear pre-scan (markdownRisky) detects them
// and such a file is extracted as plain text instead, so no upload can pin a
// core for minutes.
//
// # Plain text
//
// Plain text is cut into paragraphs on blank lines, lines kept. A manual
// page saved as text is read by its layout (manpage.go). Other text gets
// the headings plain-text documentation writes (plain.go): a title
// underlined with "====" or "----", a title line under a separator line, a
// title line in capitals, numbered section lines ("30.1. Title",
// "1.2.3 Title") and FAQ questions (numbered ones, wrapped ones included,
// and questions on lines of their own when a text has two or more), so a
// question and its answer make one section; a numbered list of steps, a
// table of contents, a table's row (words set apart in columns), an
// address ("192.168.1.10 fileserver") or a sentence opening with a number
// are not headings. An underlined title may start in lower case ("dbus
// 1.14.10"); in a document numbered in several levels, titles numbered in
// one part are headings whether or not they have subsections.
// Levels follow the order in which the kinds first appear; separator
// lines are left out of the text.
//
// # PDF
//
// PDF is read by PDFium compiled to WebAssembly and run by wazero (pdfium.go):
// pure Go to build, and a parser bug on hostile input stays inside a sandbox
// with no file system, bounded memory and a timeout. PDFium gives each page's
// text in its reading order with the line breaks it infers; for every line
// ragd asks for the baseline and font size of its first character. The
// layout step (pdf.go) is plain Go over those lines, so it is tested without
// the engine: running headers and footers go (up to two lines at each edge
// that are bare page numbers, carry the printed page number in sequence, or
// repeat at the same edge of several pages), words hyphenated at line ends
// are rejoined, lines join into paragraphs at the typical baseline spacing,
// bullets start list items, two or more consecutive lines in a monospaced
// font become a code block (indentation restored from their left edges),
// and headings come from the outline (an entry's
// title matched to a line of its page) or, without one, from font sizes
// larger than the body text. A page's blocks never continue onto the next
// page, so every block has one page. A PDF with no text on any page is
// ErrNoTextLayer: there is no OCR.
//
// # DOCX
//
// DOCX is read with archive/zip and encoding/xml (docx.go): document.xml is
// streamed, styles.xml gives heading levels (Heading N, Title, outline
// levels, through basedOn), numbering.xml tells numbered from bulleted
// lists, docProps/core.xml the title. Tables become KindTable blocks whose
// header rows are those marked to repeat, else the first row.
package extract
