package answer

import "regexp"

// A question asking how to turn something off (or on) says so in words the
// documents seldom share with the sentence that answers: "How do I turn off
// SSL certificate verification?" is answered by "Requests can also ignore
// verifying the SSL certificate if you set verify to False", while "By
// default, SSL verification is enabled" above it holds the same question
// terms ("off" and "on" are stop words, "turn" is in neither). The question's
// switching is a term of its own (offTerm, onTerm), held by the units that
// switch the same way in any of the usual words: disable, ignore, skip,
// suppress, a flag set to False or off, a --no- or --disable- option.
const (
	offTerm = "\x00off"
	onTerm  = "\x00on"
)

var (
	asksOff = regexp.MustCompile(`(?i)\b((turn|switch|shut|toggle)(s|es|ed|ing)?\s+(\S+\s+){0,4}?off|disabl(e|es|ed|ing)|deactivat(e|es|ed|ing)|opt(s|ing)?\s+out)\b`)
	asksOn  = regexp.MustCompile(`(?i)\b((turn|switch|toggle)(s|es|ed|ing)?\s+(\S+\s+){0,4}?on|enabl(e|es|ed|ing)|activat(e|es|ed|ing)|opt(s|ing)?\s+in)\b`)

	switchesOff = regexp.MustCompile(`(?i)\b(disabl\w*|deactivat\w*|(turn|switch|shut)\w*\s+(\S+\s+){0,3}?off|ignor\w*|skip\w*|suppress\w*|opt(s|ing)?\s+out)\b|\bto\s+['"“]?(false|off|no|none)\b|=\s*['"]?(false|off|no|none|0)\b|--(no|disable)-\w`)
	switchesOn  = regexp.MustCompile(`(?i)\b(enabl\w*|activat\w*|(turn|switch)\w*\s+(\S+\s+){0,3}?on|opt(s|ing)?\s+in)\b|\bto\s+['"“]?(true|on|yes)\b|=\s*['"]?(true|on|yes|1)\b|--enable-\w`)
)

// toggleTerms returns the switching terms a question asks for (offTerm,
// onTerm), none for a question that does not ask to switch anything.
func toggleTerms(question string) []string {
	var out []string
	if asksOff.MatchString(question) {
		out = append(out, offTerm)
	}
	if asksOn.MatchString(question) {
		out = append(out, onTerm)
	}
	return out
}

// markToggles adds to the terms of each unit of docs the switching terms
// of toggles it holds.
func markToggles(docs [][]unit, toggles []string) {
	for _, t := range toggles {
		re := switchesOff
		if t == onTerm {
			re = switchesOn
		}
		for i := range docs {
			for j := range docs[i] {
				if u := &docs[i][j]; !u.echo && re.MatchString(u.text) {
					u.terms = append(u.terms, t)
				}
			}
		}
	}
}
