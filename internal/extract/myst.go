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
//   - an admonition directive ("```{note}", ":::{warning}") is the prose
//     it holds, its options (":class: …") left out: it was stored as code;
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
		trimmed := strings.TrimSpace(body)
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
			if top.opened {
				if mystOption.MatchString(trimmed) {
					changed = true
					continue // a directive's option, ":class: tip"
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
		if inDrop() {
			changed = true
			if m := fenceOpen.FindStringSubmatch(body); m != nil {
				stack = append(stack, fence{marker: m[2], kind: fenceCode})
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(body); m != nil {
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
			case mystAdmonitions[name]:
				changed = true
				stack = append(stack, fence{marker: marker, kind: fenceProse, opened: true})
				out.WriteString("\n")
				if name == "admonition" && arg != "" {
					out.WriteString(arg + "\n\n") // its title
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
				tick := m[1] + strings.Repeat("`", max(3, len(marker)))
				stack = append(stack, fence{marker: marker, close: tick, kind: fenceCode, opened: true})
				out.WriteString(tick + l + "\n")
			}
			continue
		}
		if mystTarget.MatchString(trimmed) {
			changed = true
			continue
		}
		if strings.Contains(body, "}`") {
			if r := mystRole.ReplaceAllStringFunc(body, roleText); r != body {
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

// roleText is what a MyST role stands for in text.
func roleText(s string) string {
	m := mystRole.FindStringSubmatch(s)
	role, content := strings.ToLower(m[1]), m[3]
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
	// directive is a MyST directive's info string: "{name} argument".
	directive = regexp.MustCompile(`^\{([A-Za-z][\w:.+-]*)\}\s*(.*)$`)
	// mystOption is a directive's option line, ":class: tip".
	mystOption = regexp.MustCompile(`^:[\w-]+:(\s.*)?$`)
	// mystTarget is a target line, "(label)=".
	mystTarget = regexp.MustCompile(`^\([^()\s]+\)=$`)
	// mystRole is a role: "{name}" glued to a code span.
	mystRole = regexp.MustCompile("\\{([A-Za-z][\\w:.+-]*)\\}(`+)([^`]+)`+")
)

// mystAdmonitions are the directives whose content is prose.
var mystAdmonitions = map[string]bool{"note": true, "warning": true, "tip": true, "important": true, "caution": true,
	"attention": true, "danger": true, "error": true, "hint": true, "seealso": true, "admonition": true,
	"versionadded": true, "versionchanged": true, "deprecated": true, "topic": true, "sidebar": true, "margin": true}

// mystNavigation are the directives that only list other pages.
var mystNavigation = map[string]bool{"toctree": true, "contents": true, "tableofcontents": true}
