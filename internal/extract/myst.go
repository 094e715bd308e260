package extract

import (
	"bytes"
	"regexp"
	"strings"
)

// myst rewrites the MyST syntax a Sphinx project's Markdown pages use
// (pip's, among many) into the CommonMark it stands for, before parsing:
//
//   - a target line "(label)=" above a heading is no text (it was quoted
//     inside the code block before it);
//   - a role "{file}`requirements.txt`" is its code span, "{pep}`518`"
//     "PEP 518", and a role's explicit title "{ref}`the guide <label>`"
//     its title (the braces and labels were quoted: "{file}requirements.txt");
//   - an admonition directive ("```{note}", ":::{warning}") or a container
//     (a tab, a card, a drop-down, a figure) is the prose it holds, after
//     its title, an admonition's first line or a version directive's
//     version (directiveLead), its options (":class: …", or a YAML block)
//     left out: it was stored as code;
//   - a navigation directive ("```{toctree}", "```{contents}") is left out;
//   - another directive ("```{code-block} python", "```{pip-cli}") is a
//     code block, its argument its language and its options left out.
//
// Pages without MyST syntax come back unchanged.
func myst(src []byte) []byte {
	if !bytes.Contains(src, []byte("{")) && !bytes.Contains(src, []byte(")=")) {
		return src
	}
	type fence struct {
		marker string // the run of '`', '~' or ':' that opened it
		close  string // the line that closes it in the output; "" for the source's own
		kind   int    // fenceCode, fenceProse or fenceDrop
		opened bool   // still reading the directive's option lines
		yaml   bool   // inside its options written as a YAML block between "---" lines
	}
	const (
		fenceCode = iota
		fenceProse
		fenceDrop
	)
	var out strings.Builder
	var stack []fence
	changed := false
	inDrop := func() bool {
		for _, f := range stack {
			if f.kind == fenceDrop {
				return true
			}
		}
		return false
	}
	for line := range strings.Lines(string(src)) {
		body := strings.TrimRight(line, "\r\n")
		trimmed := strings.TrimSpace(strings.TrimLeft(body, "> \t"))
		if n := len(stack); n > 0 {
			top := &stack[n-1]
			if closesFence(trimmed, top.marker) {
				f := *top
				stack = stack[:n-1]
				switch {
				case inDrop():
				case f.kind != fenceCode:
					changed = true
					out.WriteString("\n")
				case f.close != "":
					out.WriteString(f.close + "\n")
				default:
					out.WriteString(line)
				}
				continue
			}
			if top.yaml {
				changed = true
				if trimmed == "---" {
					top.yaml, top.opened = false, false
				}
				continue
			}
			if top.opened {
				if mystOption.MatchString(trimmed) {
					changed = true
					continue // a directive's option, ":class: tip"
				}
				if trimmed == "---" {
					changed = true
					top.yaml = true // the options as YAML, "---" to "---"
					continue
				}
				top.opened = false
			}
			if top.kind == fenceCode {
				if !inDrop() {
					out.WriteString(line)
				}
				continue
			}
		}
		quote := blockquote.FindString(body)
		if inDrop() {
			changed = true
			if m := fenceOpen.FindStringSubmatch(body[len(quote):]); m != nil {
				stack = append(stack, fence{marker: m[2], kind: fenceCode})
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(body[len(quote):]); m != nil {
			marker, info := m[2], strings.TrimSpace(m[3])
			name, arg := "", ""
			if d := directive.FindStringSubmatch(info); d != nil {
				name, arg = strings.ToLower(d[1]), strings.TrimSpace(d[2])
			}
			switch {
			case name == "" && marker[0] == ':':
				out.WriteString(line) // no MyST colon fence: text as written
			case name == "":
				stack = append(stack, fence{marker: marker, kind: fenceCode})
				out.WriteString(line)
			case mystAdmonitions[name] || mystContainers[name]:
				changed = true
				stack = append(stack, fence{marker: marker, kind: fenceProse, opened: true})
				out.WriteString("\n")
				if lead := directiveLead(name, arg); lead != "" {
					out.WriteString(lead + "\n\n")
				}
			case mystNavigation[name]:
				changed = true
				stack = append(stack, fence{marker: marker, kind: fenceDrop, opened: true})
			default:
				changed = true
				lang := strings.Fields(arg)
				l := ""
				if len(lang) > 0 && (name == "code-block" || name == "code" || name == "sourcecode" || name == "code-cell") {
					l = lang[0]
				}
				tick := quote + m[1] + strings.Repeat("`", max(3, len(marker)))
				stack = append(stack, fence{marker: marker, close: tick, kind: fenceCode, opened: true})
				out.WriteString(tick + l + "\n")
			}
			continue
		}
		if mystTarget.MatchString(body) {
			changed = true
			continue
		}
		if strings.Contains(body, "}`") && !indentedCode(body) {
			if r := replaceRoles(body); r != body {
				changed = true
				line = r + line[len(body):]
			}
		}
		out.WriteString(line)
	}
	if !changed {
		return src
	}
	return []byte(out.String())
}

// closesFence reports whether a line closes the fence opened by marker:
// the same character, at least as many, nothing after it.
func closesFence(trimmed, marker string) bool {
	if len(trimmed) < len(marker) || trimmed[0] != marker[0] {
		return false
	}
	return strings.Trim(trimmed, marker[:1]) == ""
}

// indentedCode reports a line indented as a Markdown code block's (four
// blanks or a tab), whose roles are code's text.
func indentedCode(line string) bool {
	return strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
}

// replaceRoles rewrites the MyST roles of a line outside its code spans: a
// role's "{name}" opens a word (after a blank, an opening bracket or
// punctuation, never a letter, digit or "$") and is glued to a code span;
// the braces of "`echo ${HOME}` and then `ls`" or "`.d-{value}` for `xs`"
// are code's, and were read as roles that swallowed the text between the
// spans.
func replaceRoles(line string) string {
	var b strings.Builder
	i := 0
	for i < len(line) {
		c := line[i]
		if c == '`' {
			// A code span: copied as written, to its closing run.
			run := backtickRun(line, i)
			end := strings.Index(line[i+run:], line[i:i+run])
			if end < 0 {
				b.WriteString(line[i:])
				return b.String()
			}
			end += i + 2*run
			b.WriteString(line[i:end])
			i = end
			continue
		}
		if c == '{' && (i == 0 || roleOpens(line[i-1])) {
			if m := mystRole.FindStringSubmatchIndex(line[i:]); m != nil && m[0] == 0 {
				b.WriteString(roleText(strings.ToLower(line[i+m[2]:i+m[3]]), line[i+m[4]:i+m[5]]))
				i += m[1]
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// roleOpens reports a byte a role may follow.
func roleOpens(c byte) bool {
	return c == ' ' || c == '\t' || c == '(' || c == '[' || c == '"' || c == '\'' || c == '*' || c == '_' || c == '|' || c == '>'
}

// backtickRun is the length of the run of backticks at line[i:].
func backtickRun(line string, i int) int {
	n := 0
	for i+n < len(line) && line[i+n] == '`' {
		n++
	}
	return n
}

// roleText is what a MyST role stands for in text.
func roleText(role, content string) string {
	if i := strings.LastIndex(content, " <"); i > 0 && strings.HasSuffix(content, ">") {
		content = content[:i] // an explicit title: "the guide <label>"
	}
	content = strings.TrimPrefix(content, "~")
	switch role {
	case "pep":
		return "PEP " + content
	case "rfc":
		return "RFC " + content
	case "ref", "doc", "term", "numref", "any", "abbr", "guilabel", "menuselection", "sup", "sub", "math":
		return content
	}
	return "`" + content + "`"
}

var (
	// fenceOpen is a fence's opening line: its indentation, its marker
	// (three or more '`', '~' or ':') and its info string.
	fenceOpen = regexp.MustCompile("^( {0,3})(`{3,}|~{3,}|:{3,})(.*)$")
	// blockquote is a line's blockquote markers ("> ", "> > ").
	blockquote = regexp.MustCompile(`^( {0,3}> ?)+`)
	// directive is a MyST directive's info string: "{name} argument".
	directive = regexp.MustCompile(`^\{([A-Za-z][\w:.+-]*)\}\s*(.*)$`)
	// mystOption is a directive's option line, ":class: tip".
	mystOption = regexp.MustCompile(`^:[\w-]+:(\s.*)?$`)
	// mystTarget is a target line, "(label)=", at the line's start.
	mystTarget = regexp.MustCompile(`^\([^()\s]+\)=\s*$`)
	// mystRole is a role: "{name}" glued to a code span of one backtick.
	mystRole = regexp.MustCompile("^\\{([a-z][a-z0-9:.+-]*)\\}`([^`]+)`")
)

// mystAdmonitions are the directives whose content is prose.
var mystAdmonitions = map[string]bool{"note": true, "warning": true, "tip": true, "important": true, "caution": true,
	"attention": true, "danger": true, "error": true, "hint": true, "seealso": true, "admonition": true,
	"versionadded": true, "versionchanged": true, "deprecated": true, "topic": true, "sidebar": true, "margin": true}

// mystContainers are the directives whose content is prose under a title
// their argument gives (a tab's "Linux", a drop-down's summary), and
// figures, whose content is their caption.
var mystContainers = map[string]bool{"tab": true, "tab-item": true, "tab-set": true, "dropdown": true, "card": true,
	"grid": true, "grid-item": true, "grid-item-card": true, "figure": true, "image": true, "div": true, "rubric": true}

// directiveLead is the text a prose directive's argument stands for: an
// admonition's first line of content ("```{warning} Never run it as
// root."), a version directive's version ("Changed in version 22.1"), a
// tab's or card's title; nothing for a figure's or image's path.
func directiveLead(name, arg string) string {
	if arg == "" {
		return ""
	}
	switch name {
	case "versionadded":
		return "New in version " + arg
	case "versionchanged":
		return "Changed in version " + arg
	case "deprecated":
		return "Deprecated since version " + arg
	case "figure", "image", "grid", "tab-set", "div":
		return ""
	}
	return arg
}

// mystNavigation are the directives that only list other pages.
var mystNavigation = map[string]bool{"toctree": true, "contents": true, "tableofcontents": true}
