package extract

import "strings"

// extractPlain splits sanitised text into paragraphs on blank lines. Lines
// inside a paragraph are kept (only trailing spaces are trimmed), so plain
// text files with meaningful line structure stay readable. No headings, no
// title; a formatted manual page (isManPage) is read as manPage reads one.
func extractPlain(src []byte) *Document {
	var b builder
	if isManPage(string(src)) {
		// A manual page saved as text (man page | col -b > page.txt):
		// its layout says what is a section, an option and a paragraph.
		manPage(&b, string(src))
		if len(b.blocks) > 0 {
			return b.document("")
		}
	}
	var para []string
	flush := func() {
		if len(para) > 0 {
			b.add(KindParagraph, 0, strings.Join(para, "\n"))
			para = para[:0]
		}
	}
	s := string(src)
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		line = strings.TrimRight(line, " \t")
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if len(para) == 0 {
			// A paragraph never starts with indentation-only noise, but keeps
			// the indentation of later lines.
			line = strings.TrimLeft(line, " \t")
		}
		para = append(para, line)
	}
	flush()
	return b.document("")
}
