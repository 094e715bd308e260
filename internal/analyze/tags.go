package analyze

import (
	"regexp"
	"strings"
	"unicode"
)

// PostgreSQL's default parser reads "<" and a letter (or "/", "!", "?"), up
// to the next ">", as an XML tag, and the text search configurations drop
// tags whole. Technical writing is full of such spans that are no markup:
// a Python repr (<class 'jinja2.exceptions.TemplateSyntaxError'>, <module
// 'os' from '…'>), a placeholder (queue.purge <queue name>, /uploads/<path:
// name>), a generic type (List<String>). Their words were in no chunk's
// lexemes, so a pasted error naming the exception matched nothing and was
// refused as naming something no document mentions, while a page wrote it.

// tagLike matches what the parser takes for a tag: "<", an optional "/",
// "!" or "?", a letter, then anything but angle brackets and line breaks,
// and ">". A span holding "://" or "@" is read as a URL or an e-mail
// address instead, and keeps its words.
var tagLike = regexp.MustCompile(`<[/!?]?[A-Za-z][^<>\n]{0,256}>`)

// TagText returns the inner text of each tag-like span of text (tagLike),
// separated by spaces: the words the parser would otherwise drop.
func TagText(text string) string {
	if !strings.Contains(text, "<") {
		return ""
	}
	var out []string
	for _, m := range tagLike.FindAllString(text, -1) {
		if addressLike(m) || !parsedAsTag(m) {
			continue
		}
		out = append(out, strings.TrimLeft(m[1:len(m)-1], "/!?"))
	}
	return strings.Join(out, " ")
}

// untag returns text with the angle brackets of its tag-like spans blanked,
// so that the parser reads their words.
func untag(text string) string {
	if !strings.Contains(text, "<") {
		return text
	}
	return tagLike.ReplaceAllStringFunc(text, func(m string) string {
		if addressLike(m) {
			return m
		}
		return " " + m[1:len(m)-1] + " "
	})
}

// parsedAsTag reports whether the parser reads a tag-like span as a tag,
// which it drops. After the tag's name (anything up to the first blank:
// "<A000表示设置>", "<x.y>" are tags) it reads, outside quoted values, only
// ASCII letters, digits, blanks and "=-_#/:.&?%~"; any other character
// ("<x 表示>", "<x (y)>", "<x a,b>") makes the span no tag to it, and its
// words are indexed from the text like any others (added again, they
// counted twice).
func parsedAsTag(span string) bool {
	inner := strings.TrimPrefix(strings.TrimSuffix(span, ">"), "<")
	_, attrs, ok := strings.Cut(inner, " ")
	if !ok {
		_, attrs, _ = strings.Cut(inner, "\t")
	}
	quote := rune(0)
	for _, r := range attrs {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" \t=-_#/:.&?%~", r)):
		default:
			return false
		}
	}
	return true
}

// addressLike reports a bracketed URL or e-mail address, which the parser
// reads as such: it keeps its words.
func addressLike(span string) bool {
	return strings.Contains(span, "://") || strings.Contains(span, "@")
}

// skippedTag matches the start of a script or style tag as the parser
// reads one: "<", the name, then a blank or ">" (a ">" need not follow:
// "reject <script or <iframe tags" drops the rest too). After it, the
// parser drops every word up to a closing script or style tag, or to the
// end of the text.
var skippedTag = regexp.MustCompile(`(?i)<(script|style)(\s[^<>]*>|\s|>)`)

// closingTag matches the tag that ends the parser's dropping: </script or
// </style, then a blank or ">" ("</scripts" does not).
var closingTag = regexp.MustCompile(`(?i)</(script|style)(\s|>|$)`)

// SkippedText returns the text the parser drops after each script or style
// tag of text (skippedTag) up to its closing tag, its own tag-like spans
// blanked: prose about HTML writes the tags ("any strings found in a
// <script> tag") and lost every word after them, so Beautiful Soup's
// manual was refused "Javascript" it explains.
func SkippedText(text string) string {
	if !strings.Contains(text, "<") {
		return ""
	}
	var out []string
	for len(text) > 0 {
		loc := skippedTag.FindStringSubmatchIndex(text)
		if loc == nil {
			break
		}
		rest := text[loc[1]:]
		end := len(rest)
		if c := closingTag.FindStringIndex(rest); c != nil {
			end = c[0]
		}
		if span := strings.TrimSpace(rest[:end]); span != "" {
			out = append(out, strings.ReplaceAll(strings.ReplaceAll(untag(span), "<", " "), ">", " "))
		}
		text = rest[end:]
	}
	return strings.Join(out, " ")
}
