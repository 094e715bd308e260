package answer

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragd-dev/ragd/internal/analyze"
)

// truncate cuts s to at most max bytes, at a space when one is in the second
// half, else at a rune boundary, and appends "…" when it cut.
func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := strings.LastIndexByte(s[:max], ' ')
	if cut < max/2 {
		cut = max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// clip shortens a quoted sentence longer than max bytes to its start and
// its end, joined by " … " at word boundaries: a long sentence says what
// it is about at one end and often what it concludes at the other ("Since
// in most cases “validating” an email address is …, the email format
// keyword only provides a sanity check, not full rfc5322 validation"), and
// cut after max bytes it lost exactly the words the question asked about.
//
// A sentence at most a quarter longer than max is kept whole (wholeUpTo):
// a cut saves little there, and the few words it drops from the middle
// were "edit the … in the libltdl/config subdirectory", the file to edit.
func clip(s string, max int) string {
	if len(s) <= wholeUpTo(max) {
		return s
	}
	head := strings.TrimSuffix(truncate(s, max*2/5), "…")
	room := max - len(head) - len(" … ")
	if room <= 0 {
		return truncate(s, max)
	}
	from := len(s) - room
	for from < len(s) && !utf8.RuneStart(s[from]) {
		from++
	}
	// The end starts at a word: where the cut falls inside one, after it.
	if from > 0 && s[from-1] != ' ' {
		if sp := strings.IndexByte(s[from:], ' '); sp >= 0 && sp < (len(s)-from)/2 {
			from += sp + 1
		}
	}
	return head + " … " + s[from:]
}

// wholeUpTo is the longest sentence clip keeps whole for max.
func wholeUpTo(max int) int { return max + max/4 }

// stripMarkers removes citation-like markers from source text, so that the
// only markers in an extractive answer are its own. Brackets that are not
// citations (keepBrackets) are kept as written, inside a code span, which
// no marker is read from.
func stripMarkers(s string) string {
	out, _, _ := verifyRaw(keepBrackets(s), 0)
	return out
}

// keepBrackets puts in a code span the bracketed numbers of source text
// that say something: a subscript glued to a name shaped like code
// (sys.argv[1], quux_scores[1], grid.rows[2][3], secret/data/cold[0]: a
// dot, an underscore, a digit, a parenthesis or a slash in the name; a one-letter name in lower case,
// t[1]; a name glued to the "(" or "," before it), and a group of
// several numbers or of 0 (the intervals [0, 1] and [1, 10]; a list of
// references "[3, 4]" is kept too, as written). Deleted, "sys.argv[1]" was
// quoted "sys.argv" and "an integer in [1, 10]" "an integer in", the
// answer's own marker then reading as the value. A lone number after a
// blank or a plain word ("Paris[1]", "as shown [2]") is a footnote or a
// planted citation and is still removed.
func keepBrackets(s string) string {
	markers, _, _ := scanMarkers(s, true)
	if len(markers) == 0 {
		return s
	}
	var b strings.Builder
	last, keptEnd := 0, -1
	for i := 0; i < len(markers); i++ {
		m := markers[i]
		start := callStart(s, last, m.start)
		name := s[start:m.start]
		end := m.end
		j := i
		for j+1 < len(markers) && markers[j+1].start == end {
			j++
			end = markers[j].end
		}
		// A footnote follows a word or a sentence's end ("in 1990.[3]",
		// "Paris[1][2]"): the name must start like one and not end with
		// a full stop, and a plain word's subscripts are taken for
		// footnotes, however many.
		name = strings.TrimLeft(name, ".)0123456789")
		// A one-letter name in lower case ("t[1]", "x[2]") is a variable,
		// and a lower-case name glued to the "(" or "," before it
		// ("(1,t[1])", "(rows[3])") is inside code: neither is a
		// footnote's word. A capital is a name's ("Vitamin C[1]", "World
		// War I[3]", "(Smith[2])").
		glued := start > 0 && strings.IndexByte("(,[", s[start-1]) >= 0 && name != "" && name[0] >= 'a' && name[0] <= 'z'
		variable := len(name) == 1 && name[0] >= 'a' && name[0] <= 'z'
		// A path ("secret/data/cold[0]") has two slashes at least; one
		// joins two words ("TCP/IP[3]", "read/write[4]"), whose number is
		// a footnote's.
		keep := name != "" && !strings.HasSuffix(name, ".") && (strings.ContainsAny(strings.ReplaceAll(name, "/", ""), "._()0123456789") || strings.Count(name, "/") >= 2 || variable || glued) ||
			start == m.start && (len(m.nums) > 1 || slices.Contains(m.nums, 0) || namedReference(s, last, start, keptEnd))
		if !keep || strings.Contains(s[start:end], "`") {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteByte('`')
		b.WriteString(s[start:end])
		b.WriteByte('`')
		last, i, keptEnd = end, j, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// namedReference reports a bracketed number at s[start:] that the
// sentence names as a word: after "see" or "cf." ("see [1]"), or joined by
// "and", "or" or a comma to one kept just before (keptEnd: "see [1] and
// [2]"). Deleted, "until the tests pass, see [1] and [2]" was quoted "see
// and". After any other word it is a footnote or a planted citation
// ("designed by [1]", "as confirmed by [3]"), and is removed. last is
// where the text not yet written starts.
func namedReference(s string, last, start, keptEnd int) bool {
	w := strings.ToLower(wordBefore(s[last:start]))
	if w == "see" || w == "cf" {
		return true
	}
	if keptEnd < 0 {
		return false
	}
	between := strings.TrimSpace(s[keptEnd:start])
	return between == "and" || between == "or" || between == ","
}

// wordBefore returns the last word of s when s ends with it and blanks
// (the word a bracket written after a blank follows); "" otherwise.
func wordBefore(s string) string {
	t := strings.TrimRight(s, " \t")
	if len(t) == len(s) {
		return ""
	}
	t = strings.TrimSuffix(t, ".")
	i := strings.LastIndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
	if i < 0 {
		return t
	}
	_, size := utf8.DecodeRuneInString(t[i:])
	return t[i+size:]
}

// callStart returns where the name that ends at end starts (not before
// floor): a run of name bytes, through a call's parentheses ("f(x)", whose
// "(" follows a name byte). A parenthesis after a blank ("Canberra (the
// capital)[3]") is prose, and the name is empty.
func callStart(s string, floor, end int) int {
	start := end
	for start > floor {
		switch c := s[start-1]; {
		case nameByte(c):
			start--
		case c == ')':
			depth, i := 0, start-1
			for ; i >= floor; i-- {
				if s[i] == ')' {
					depth++
				} else if s[i] == '(' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			if i < floor || i == floor || !nameByte(s[i-1]) {
				return end
			}
			start = i
		default:
			return start
		}
	}
	return start
}

// nameByte reports an ASCII byte of a name a subscript may follow.
func nameByte(c byte) bool {
	return c == '_' || c == '.' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// withCitation puts " [n]" before the sentence's final punctuation ("is Y [1].",
// "like this [1]:") or at its end when it has none.
func withCitation(s string, n int) string {
	s = strings.TrimSpace(s)
	marker := " [" + strconv.Itoa(n) + "]"
	end := len(s)
	for end > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:end])
		// A colon before the final mark is the word's ("… to redirect is
		// Location:." reads "is Location: [1]."): only a sentence's last
		// colon announces.
		if !strings.ContainsRune(".!?:。！？", r) || r == ':' && end < len(s) {
			break
		}
		end -= size
	}
	if rest := strings.TrimRight(s, "."); len(s)-len(rest) >= 3 && strings.HasSuffix(rest, " ") {
		// Dots standing as a word of their own are a literal ellipsis,
		// text (the Go specification's "followed by ...." had become
		// "followed by [1]...."): only a full stop after them is the
		// sentence's. A prose ellipsis ("Wait for it...") ends it.
		end = len(rest) + 3
	}
	if end == 0 || end == len(s) {
		return s + marker
	}
	// Chinese and Japanese put no space between a word and what follows
	// it: 三到五天[1]。, not 三到五天 [1]。
	if r, _ := utf8.DecodeLastRuneInString(s[:end]); isCJKText(r) {
		marker = marker[1:]
	}
	return s[:end] + marker + s[end:]
}

// isCJKText reports a character of a script written without spaces
// (analyze.Unspaced) or its full-width punctuation.
func isCJKText(r rune) bool {
	return analyze.Unspaced(r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF
}

func isHeading(t string) bool {
	n := runLen(t, 0, '#')
	return n >= 1 && n <= 6 && (len(t) == n || t[n] == ' ') && !rootCommand(t)
}

// rootCommand reports a command typed at a root shell prompt, as Unix
// manuals print it ("# dpkg-reconfigure tzdata", "# dmesg -n3"), which is
// shaped like a Markdown heading: "#", blanks, then a lowercase word that
// is a common administration command or a path ("./configure"), or is
// followed by an argument shaped like one (an option, a path, an
// assignment, a variable). "# Installation", "# getting started", "#
// pre-requisites", "# node.js" and "# upgrading to v2.0" stay headings.
func rootCommand(t string) bool {
	rest, ok := strings.CutPrefix(t, "#")
	if !ok || rest == "" || rest[0] != ' ' {
		return false
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return false
	}
	w := f[0]
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("-._/+", r)) {
			return false
		}
	}
	if strings.Contains(w, "/") || commonCommands[w] {
		return true
	}
	for _, a := range f[1:] {
		if strings.HasPrefix(a, "-") || strings.ContainsAny(a, "/=$~*") {
			return true
		}
	}
	return false
}

// commonCommands are administration commands a root prompt often shows
// with plain arguments ("# apt install foo", "# systemctl restart nginx").
var commonCommands = map[string]bool{"apt": true, "aptitude": true, "dpkg": true, "systemctl": true, "service": true,
	"mount": true, "umount": true, "chmod": true, "chown": true, "cp": true, "mv": true, "rm": true, "mkdir": true,
	"echo": true, "cat": true, "vi": true, "vim": true, "nano": true, "make": true, "ip": true, "modprobe": true,
	"dmesg": true, "reboot": true, "shutdown": true, "useradd": true, "adduser": true, "passwd": true, "su": true,
	"sudo": true, "kill": true, "tar": true, "dd": true, "fdisk": true, "mkfs": true, "ls": true, "cd": true,
	"yum": true, "dnf": true, "rpm": true, "zypper": true, "pacman": true, "journalctl": true, "sysctl": true,
	"iptables": true, "nft": true, "crontab": true, "locale": true, "hostname": true, "hostnamectl": true,
	"apt-get": true, "apt-cache": true, "apt-key": true, "dpkg-reconfigure": true, "dpkg-query": true,
	"update-alternatives": true, "update-grub": true, "update-initramfs": true, "update-rc.d": true,
	"debconf-set-selections": true, "genisoimage": true, "lsblk": true, "blkid": true, "swapon": true,
	"ifup": true, "ifdown": true, "visudo": true, "usermod": true, "groupadd": true, "chroot": true}

// listItem strips a list or quote marker: "- ", "* ", "+ ", "1. ", "1) ", "> ".
func listItem(t string) (string, bool) {
	if len(t) >= 2 && strings.ContainsRune("-*+>", rune(t[0])) && t[1] == ' ' {
		return strings.TrimSpace(t[2:]), true
	}
	d := 0
	for d < len(t) && d < 3 && t[d] >= '0' && t[d] <= '9' {
		d++
	}
	if d > 0 && d+1 < len(t) && (t[d] == '.' || t[d] == ')') && t[d+1] == ' ' {
		return strings.TrimSpace(t[d+2:]), true
	}
	return t, false
}

// tableCells splits a table row, Markdown ("| a | b |") or as package extract
// renders rows ("a | b"), into its trimmed cells.
func tableCells(t string) []string {
	// Extraction joins cells with " | ": a "|" inside a cell ("AllowOverride
	// All|None|directive-type", Apache's syntax boxes) is the cell's, and
	// split there the row read "Syntax:; AllowOverride All; None; …". A
	// row written without blanks around its bars (Markdown's "a|b",
	// "---|---") splits at every bar.
	t = strings.Trim(t, "| ")
	sep := " | "
	if !strings.Contains(t, sep) {
		sep = "|"
	}
	cells := strings.Split(t, sep)
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// abbreviations that end in a period without ending a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "mr": true, "mrs": true, "ms": true,
	"dr": true, "prof": true, "fig": true, "no": true, "cf": true, "approx": true,
	"inc": true, "ltd": true, "jr": true, "sr": true, "st": true, "al": true, "eq": true, "eg": true, "ie": true, "viz": true,
	// German's, written without spaces ("z.B.", "d.h."; spaced, "z. B.",
	// they are initials: spacedInitials) or as one word ("bzw.", "usw.").
	"z.b": true, "d.h": true, "u.a": true, "o.a": true, "s.o": true, "s.u": true, "u.u": true, "bzw": true,
	"vgl": true, "ggf": true, "evtl": true, "inkl": true, "zzgl": true, "nr": true, "sog": true,
}

// lowerOnly are abbreviations that are one only in lower case.
var lowerOnly = map[string]bool{"eg": true, "ie": true, "viz": true}

// beforeNumber are abbreviations that end a word, not a sentence, before a
// number: month names before a day ("Jul. 1, 2016" was split into "…
// Jul." and "1, 2016, a reinvested dividend …"), "vol. 2", "pp. 10-12",
// "ch. 3", "sec. 4", "ca. 1900", a page reference "(see smooth unique
// (p. 113))", which a PDF manual's cross-references write and which was
// quoted as "(p [1]. 113)), a curve is …". Elsewhere they may end a sentence ("the
// timeout is 30 sec. Larger values …", "signed by the CA. The client …").
var beforeNumber = map[string]bool{"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true, "vol": true, "p": true, "pp": true, "ch": true, "sec": true, "ca": true}

// splitUnit splits a paragraph at ".", "!" or "?" (optionally followed by
// closing quotes or brackets) followed by a blank and a character that is not
// lowercase, unless the period ends an abbreviation or an initial; "。！？"
// always end a sentence. A period inside a token ("3.14", "os.Exit",
// "main.go") never does.
func splitUnit(u string) []string {
	var out []string
	start := 0
	add := func(end int) {
		if s := strings.TrimSpace(u[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(u); {
		r, size := utf8.DecodeRuneInString(u[i:])
		switch r {
		case '。', '！', '？':
			add(i + size)
		case '.', '!', '?':
			j := i + size
			for j < len(u) && strings.ContainsRune("\"')]”’»", rune(u[j])) {
				j++
			}
			if j == len(u) || (u[j] != ' ' && u[j] != '\t') {
				break
			}
			k := j
			for k < len(u) && (u[k] == ' ' || u[k] == '\t') {
				k++
			}
			if k < len(u) {
				// Nor does a sentence open with a closing bracket: the
				// period closed something inside the brackets ("DISTINCT
				// ON ( expression [, ...] ) keeps only the first row"
				// was quoted from ") keeps").
				next, _ := utf8.DecodeRuneInString(u[k:])
				if unicode.IsLower(next) || strings.ContainsRune(")]}", next) {
					break
				}
				// Nor with a dash: the mark ends an aside inside the
				// sentence ("only if – and only if! – the attribute
				// has a field()" was quoted from "– the attribute").
				if r != '.' && (next == '–' || next == '—') {
					break
				}
			}
			if r == '.' && (endsAbbreviation(u[:i]) || syntaxEllipsis(u[start:i+1])) {
				break
			}
			if r == '.' && i >= 1 && u[i-1] == '.' && (i == 1 || u[i-2] == ' ' || u[i-2] == '\t') && (strings.TrimSpace(u[start:i-1]) == "" || k < len(u) && !capitalised(u[k:])) {
				// A ".." standing alone before a word in capitals or a
				// number is a placeholder or a range of code ("LIMIT ..
				// OFFSET .. becomes slower the bigger offset you use" was
				// quoted from "OFFSET .."), no sentence's end; before a
				// capitalised word it may be the parent directory ending
				// an instruction ("… with cd .. Then run make."). Opening
				// the text (reStructuredText's ".. Note::"), it ends
				// nothing.
				break
			}
			if r != '.' && syntaxToken(u, i) {
				// The "!" or "?" closes a token of a template's, a
				// shell's or a regular expression's syntax: the sentence
				// goes on ("Python code is denoted by <%! %> tags" was
				// split after "<%!").
				break
			}
			if r == '.' && k < len(u) && u[k] >= '0' && u[k] <= '9' && beforeNumber[strings.ToLower(lastWord(u[:i]))] {
				break
			}
			if r == '.' && k < len(u) && (ordinalDate(u[start:i], u[k:]) || spacedInitials(u[start:i], u[k:])) {
				break
			}
			if insideQuote(u[start:j], u[j:]) {
				// A full stop inside a quotation that closes further on
				// ("“End Of File (EOF) in read(). Exception style
				// platform.”") ends no sentence of the paragraph: split,
				// pexpect's message was quoted "“End Of File (EOF) in
				// read() [1]. Exception style platform.” [1]", and no
				// longer read as the message the question pasted.
				break
			}
			if r == '.' && captionNumber.MatchString(u[start:i]) {
				// A caption's number ("Example 7.1. Creating a table",
				// "Listing 15-4. The error …") ends no sentence: the
				// caption is one unit (numberedCaption).
				break
			}
			add(j)
		}
		i += size
	}
	add(len(u))
	for i := 1; i < len(out); i++ {
		if literalList.MatchString(out[i]) {
			// A list of values after a full stop ("action to take in
			// case a unit is redefined. ‘warn’, ‘raise’, ‘ignore’") is
			// what the sentence before it names; alone it is no
			// sentence, and the answer stopped before the values.
			out[i-1] += " " + out[i]
			out = slices.Delete(out, i, i+1)
			i--
		}
	}
	if n := len(out); n > 1 && strings.HasPrefix(out[n-1], "(") && strings.HasSuffix(out[n-1], ")") && !strings.ContainsAny(out[n-1][1:len(out[n-1])-1], "()") {
		// A parenthesis after the last sentence's full stop is that
		// sentence's (a citation: "… than random PBT. (Löscher and
		// Sagonas)"); alone it was quoted as a sentence opening the next
		// paragraph's.
		out[n-2] += " " + out[n-1]
		out = out[:n-1]
	}
	for i := 1; i < len(out); i++ {
		if asideOfBefore(out[i]) {
			// An example or a gloss in brackets after a full stop is the
			// sentence's before it ("Invalid credentials were presented
			// during bind() or simple_bind(). (e.g., the wrong
			// password)."): alone it is no sentence, and the answer
			// ended before it.
			out[i-1] += " " + out[i]
			out = slices.Delete(out, i, i+1)
			i--
		}
	}
	return out
}

// capitalised reports whether s opens with a word written as a sentence's
// first: a capital letter, then a lower-case one.
func capitalised(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	next, _ := utf8.DecodeRuneInString(s[n:])
	return unicode.IsUpper(r) && unicode.IsLower(next)
}

// asideOfBefore reports a sentence that is one parenthesis giving an
// example or a gloss ("(e.g., the wrong password).", "(e.g., calling
// close() twice).", "(i.e. …)", "(for example …)") of the sentence before
// it: the bracket that opens it closes at its end.
func asideOfBefore(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if len(s) < 3 || s[0] != '(' || s[len(s)-1] != ')' || !glossOpening.MatchString(s[1:]) {
		return false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i < len(s)-1 {
				return false // "(e.g. this) and (that)" is two
			}
		}
	}
	return depth == 0
}

// glossOpening matches the opening of an example or a gloss.
var glossOpening = regexp.MustCompile(`(?i)^(e\.\s?g\.|i\.\s?e\.|eg\b|ie\b|for (example|instance)\b|such as\b|that is\b|see also\b)`)

// insideQuote reports whether a sentence so far (before) leaves a double
// quotation open (“ without its ”, or an odd number of straight ") that
// the text after it (after) closes within maxQuoteSpan bytes.
func insideQuote(before, after string) bool {
	after = after[:min(len(after), maxQuoteSpan)]
	if strings.Count(before, "“") > strings.Count(before, "”") {
		return strings.Contains(after, "”")
	}
	return strings.Count(before, `"`)%2 == 1 && strings.Contains(after, `"`)
}

// maxQuoteSpan bounds how far a quotation may run on for insideQuote: a
// quoted message, not a stray mark.
const maxQuoteSpan = 200

// literalList matches a piece that is only quoted values separated by
// commas, "or" or "and" ("‘warn’, ‘raise’, ‘ignore’", "'a' or 'b'.").
var literalList = regexp.MustCompile("^(?:[‘'\"“`][^‘’'\"“”`]{1,40}[’'\"”`]\\s*(?:,|\\bor\\b|\\band\\b)?\\s*)+\\.?$")

// captionNumber matches a sentence so far that is only a caption's word
// and number ("Listing 15-4", "Figure 4.2").
var captionNumber = regexp.MustCompile(`^\s*` + captionLabel + `$`)

// months are German's month names, which a day's ordinal number with its
// full stop precedes ("am 31. März"); true for those English writes
// otherwise, false for those it writes alike (April, August, September,
// November: "Windows 10. August 2023 saw …" is two sentences), which need
// a German word before the number (dayWords).
var months = map[string]bool{"januar": true, "jänner": true, "februar": true, "märz": true, "april": false, "mai": true,
	"juni": true, "juli": true, "august": false, "september": false, "oktober": true, "november": false, "dezember": true}

// dayWords are the German words before a date's day ("am 1. April",
// "bis zum 15. August").
var dayWords = map[string]bool{"am": true, "zum": true, "vom": true, "bis": true, "ab": true, "seit": true, "den": true,
	"dem": true, "zur": true, "ist": true, "war": true}

// ordinalDate reports whether the full stop after before is a day's
// ordinal before a month's name (next): "Urlaub verfällt am 31. März" was
// split after "31." and the answer lost the month.
func ordinalDate(before, next string) bool {
	f := strings.Fields(before)
	if len(f) == 0 {
		return false
	}
	day, err := strconv.Atoi(f[len(f)-1])
	if err != nil || day < 1 || day > 31 {
		return false
	}
	w := strings.FieldsFunc(next, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(w) == 0 {
		return false
	}
	german, ok := months[strings.ToLower(w[0])]
	return ok && (german || len(f) >= 2 && dayWords[strings.ToLower(f[len(f)-2])])
}

// spacedInitials reports whether the full stop after before ends the
// first letter of an abbreviation written as spaced initials, German's
// "z. B.", "d. h.", "u. a.": a lower-case letter alone before it, and a
// letter alone with its full stop after it (next), or the second of
// those letters after the first. Split there, "über das
// Portal, z. B. …" was quoted as "über das Portal, z".
func spacedInitials(before, next string) bool {
	f := strings.Fields(before)
	if len(f) == 0 {
		return false
	}
	last := []rune(f[len(f)-1])
	if len(last) != 1 || !unicode.IsLetter(last[0]) {
		return false
	}
	if len(f) >= 2 {
		// The second letter: "d. h." before "Anträge …".
		if prev := []rune(f[len(f)-2]); len(prev) == 2 && prev[1] == '.' && initialPairs[strings.ToLower(string([]rune{prev[0], last[0]}))] {
			return true
		}
	}
	after := []rune(next)
	return len(after) >= 2 && after[1] == '.' && initialPairs[strings.ToLower(string([]rune{last[0], after[0]}))]
}

// initialPairs are German's abbreviations written as two spaced initials
// (z. B., d. h., u. a., o. ä., u. U., s. o., s. u., v. a., z. T., i. d. R.),
// as their two letters: "press q. E.g. in less" is two sentences.
var initialPairs = map[string]bool{"zb": true, "dh": true, "ua": true, "oä": true, "uu": true, "so": true, "su": true,
	"va": true, "zt": true, "id": true, "dr": true}

// syntaxEllipsis reports whether s, the sentence so far, ends with an
// ellipsis that stands for part of a command rather than ending the
// sentence: inside an open double quote or bracket ("[, ...]", a template's
// "{% ... %}"), or after a
// word in capitals
// ("INSERT ... SELECT", "CASE ... END"). Split there, a change log's "on
// "INSERT ... SELECT" statements" was quoted as "on "INSERT …".
func syntaxEllipsis(s string) bool {
	if !strings.HasSuffix(s, "...") {
		return false
	}
	before := strings.TrimRight(strings.TrimSuffix(s, "..."), " ")
	if strings.Count(before, `"`)%2 == 1 || strings.Count(before, "“") > strings.Count(before, "”") ||
		strings.Count(before, "[") > strings.Count(before, "]") || strings.Count(before, "(") > strings.Count(before, ")") ||
		strings.Count(before, "{") > strings.Count(before, "}") {
		return true
	}
	f := strings.Fields(before)
	if len(f) == 0 {
		return false
	}
	w := strings.TrimLeft(f[len(f)-1], `("“'`)
	return len(w) >= 2 && strings.ToUpper(w) == w && strings.ToLower(w) != w
}

// endsAbbreviation reports whether s ends with an abbreviation or a
// single-letter initial (the period that follows is not a sentence end).
func endsAbbreviation(s string) bool {
	j := len(s)
	for j > 0 {
		c := s[j-1]
		if c == '.' || (c|0x20 >= 'a' && c|0x20 <= 'z') {
			j--
			continue
		}
		break
	}
	w := strings.ToLower(s[j:])
	if w == "" {
		return false
	}
	if lowerOnly[w] && s[j:] != w {
		return false // "IE" is Internet Explorer, not "i.e."
	}
	return abbreviations[w] || (len(w) == 1 && w[0] >= 'a' && w[0] <= 'z' && strings.ToUpper(s[j:]) == s[j:])
}

// terms returns the content words of s: lowercased letter/digit runs, stop
// words and single letters dropped, stemmed, and its operators
// (analyze.OperatorTerms). An identifier joined by
// underscores ("work_mem") yields its parts and then itself, whole and
// unstemmed, so that it matches exactly where it is named and not where a
// longer one ("autovacuum_work_mem") is.
func terms(s string) []string {
	// Widths folded, as the question is (analyze.Question): a source
	// writing ＡＰＴ matches a question about APT.
	s = analyze.FoldWidth(s)
	var out []string
	// A word written with hyphens (analyze.HyphenatedWords: "re-run",
	// "e-mail", "built-in") is written joined too ("rerunning", "email"),
	// so it yields its joined form; a prefix that is no word alone (re,
	// pre, non, …) opening one is no term: "re-run" matched every "re-"
	// word of a page ("their re-running") as strongly as its rare term,
	// and the section "Rerunning only failures" lost.
	var compounds []string
	if strings.Contains(s, "-") {
		for _, h := range analyze.HyphenatedWords(s) {
			compounds = append(compounds, strings.ToLower(h))
		}
	}
	opensCompound := func(at int) bool {
		if at > 0 && s[at-1] == '-' {
			return false
		}
		rest := strings.ToLower(s[at:min(len(s), at+41)])
		return slices.ContainsFunc(compounds, func(c string) bool { return strings.HasPrefix(rest, c) })
	}
	start, identStart := -1, -1
	emit := func(end int) {
		if start < 0 {
			return
		}
		w, at := strings.ToLower(s[start:end]), start
		opens := boundPrefixes[w] && end < len(s) && s[end] == '-' && opensCompound(start)
		start = -1
		if strings.IndexFunc(w, analyze.Unspaced) >= 0 {
			out = append(out, cjkTerms(w)...)
			return
		}
		if stopWords[w] && !writtenAsCode(s, at, end) || opens {
			return
		}
		if utf8.RuneCountInString(w) < 2 && !(w[0] >= '0' && w[0] <= '9') {
			// A letter written as a command-line option ("-h", "'-v'")
			// is a term of its own: "How do I make -h work as well as
			// --help?" had only "make", "work", "well" and "help" left,
			// and the page of help_option_names=['-h', '--help'] lost
			// to one repeating "help".
			if shortOption(s, at) {
				out = append(out, "-"+w)
			}
			return
		}
		out = append(out, stem(w))
	}
	emitIdent := func(end int) {
		if identStart >= 0 && strings.Contains(s[identStart:end], "_") {
			// An identifier glued to CJK text ("pg_dumpを") ends at it.
			for _, w := range strings.FieldsFunc(s[identStart:end], analyze.Unspaced) {
				if w = strings.Trim(w, "_"); strings.Contains(w, "_") {
					out = append(out, strings.ToLower(w))
				}
			}
		}
		identStart = -1
	}
	for i, r := range s {
		// A combining mark continues its word (Thai vowels and tone marks:
		// น้ำ is one run, as PostgreSQL's parser reads it).
		if unicode.IsLetter(r) || unicode.IsDigit(r) || start >= 0 && unicode.IsMark(r) {
			if start < 0 {
				start = i
			}
			if identStart < 0 {
				identStart = i
			}
			continue
		}
		emit(i)
		if r != '_' {
			emitIdent(i)
		}
	}
	emit(len(s))
	emitIdent(len(s))
	for _, c := range compounds {
		out = append(out, stem(strings.ReplaceAll(c, "-", "")))
	}
	// Operators are terms too, as the keyword leg indexes them: "What does
	// the ~ operator do?" is answered where "~" is.
	out = append(out, strings.Fields(analyze.OperatorTerms(s))...)
	return out
}

// writtenAsCode reports whether the word s[at:end] is written as code: a
// call ("get()", "open(path)") or an attribute of a name before it
// ("region.get", "os.path"). A stop word so written is a name: "Does
// region.get() return None for a missing key?" lost its subject, the
// method get, and was answered with get_or_create_multi's entry.
func writtenAsCode(s string, at, end int) bool {
	if end < len(s) && s[end] == '(' {
		return true
	}
	if at >= 2 && s[at-1] == '.' {
		r, _ := utf8.DecodeLastRuneInString(s[:at-1])
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == ')'
	}
	return false
}

// shortOption reports a one-letter word at byte at of s written as a
// command-line option: after one "-" that opens a word (at the start, or
// after a blank, a quote of any kind or a bracket), and not followed by
// another letter or a digit ("x-y" and "-1" are no options).
func shortOption(s string, at int) bool {
	if at < 1 || s[at-1] != '-' {
		return false
	}
	if at >= 2 {
		r, _ := utf8.DecodeLastRuneInString(s[:at-1])
		if !unicode.IsSpace(r) && !unicode.Is(unicode.Quotation_Mark, r) && !strings.ContainsRune("([{,=", r) {
			return false
		}
	}
	_, size := utf8.DecodeRuneInString(s[at:])
	if at+size == len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[at+size:])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// boundPrefixes are the prefixes English writes with a hyphen that are no
// words of their own.
var boundPrefixes = map[string]bool{"re": true, "pre": true, "non": true, "co": true, "un": true, "de": true,
	"mis": true, "sub": true, "semi": true, "multi": true, "anti": true, "inter": true}

// cjkTerms splits a word holding characters of a script that puts no
// spaces between words (Chinese, Japanese, Korean, Thai, …:
// analyze.Unspaced), as the keyword leg indexes them (package analyze):
// every such run as overlapping character bigrams (a lone
// character as itself), the pieces between runs as words of their own.
func cjkTerms(w string) []string {
	var out []string
	var run []rune
	piece := -1
	flush := func(end int) {
		switch {
		case len(run) == 1:
			out = append(out, string(run))
		case len(run) > 1:
			for i := 0; i+1 < len(run); i++ {
				out = append(out, string(run[i:i+2]))
			}
		}
		run = run[:0]
		if piece >= 0 {
			if p := w[piece:end]; !stopWords[p] && (utf8.RuneCountInString(p) >= 2 || p[0] >= '0' && p[0] <= '9') {
				out = append(out, stem(p))
			}
			piece = -1
		}
	}
	for i, r := range w {
		if analyze.Unspaced(r) {
			if piece >= 0 {
				flush(i)
			}
			run = append(run, r)
			continue
		}
		if len(run) > 0 {
			flush(i)
		}
		if piece < 0 {
			piece = i
		}
	}
	flush(len(w))
	return out
}

// wordCount is the number of words of s: blank-separated words, a CJK
// character counting as half a word (Chinese and Japanese words are one to
// three characters long and are not separated by blanks).
func wordCount(s string) int {
	n, cjk := 0, 0
	for _, f := range strings.Fields(s) {
		c := 0
		for _, r := range f {
			if analyze.Unspaced(r) {
				c++
			}
		}
		if c == 0 {
			n++
		}
		cjk += c
	}
	return n + (cjk+1)/2
}

func uniq(ts []string) []string {
	var out []string
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// stem strips common English inflections, just enough for "tenants" to meet
// "tenant", "indexing" "index", "stored" "store" and "violation" "violated":
// -ification(s) and -ified→-ify ("verification" meets "verify", which
// -ation alone made "verificat"), -ation(s)→-at, -ies→y, -sses→ss, -s,
// -ing, -ed (undoubling a final consonant), then a final -e. It is applied to
// question and sources alike, so only consistency matters.
func stem(w string) string {
	if len(w) <= 3 || !analyze.IsASCIILetters(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ifications") && len(w) >= 12:
		w = w[:len(w)-len("ifications")] + "ify" // verifications → verify, as verifies
	case strings.HasSuffix(w, "ification") && len(w) >= 11:
		w = w[:len(w)-len("ification")] + "ify"
	case strings.HasSuffix(w, "ified") && len(w) >= 7:
		w = w[:len(w)-len("ified")] + "ify" // verified → verify
	case strings.HasSuffix(w, "ations") && len(w) >= 8:
		w = w[:len(w)-4] // violations → violat, as violated → violat
	case strings.HasSuffix(w, "ation") && len(w) >= 7:
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) >= 5:
		w = undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	if len(w) >= 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouslz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopWords are English function words and question words, which carry no
// topic. Contractions appear split ("don" of "don't"), as terms splits them.
// Not "happen": "How often does garbage collection happen?" is answered
// by the sentence that says it happens (a review).
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because
	been before being below between both but by can could did do does doing done down during each either
	few for from further had has have having he her here hers herself him himself his how i if in into is
	it its itself just me more most my myself no nor not now of off on once only or other our ours
	ourselves out over own same she should so some such than that the their theirs them themselves then
	there these they this those through to too under until up very was we were what when where which
	while who whom why will with would you your yours yourself yourselves also may might must shall
	cannot get gets got use used using tell explain describe please don doesn isn aren see mean means well
	say says said saying`) {
		m[w] = true
	}
	return m
}()

// compound is a pair of adjacent words of a question written together
// (joinedPairs), stemmed as terms are, with the terms of its two words
// ("" for a particle, which is a stop word and no term).
type compound struct {
	joined string
	parts  [2]string
	// words are the two words as the question writes them, lowercased.
	words [2]string
}

// joinedPairs returns, stemmed as terms are, the words two adjacent words
// of s make when written together ("log in": login, "set up": setup, "data
// base": database): questions split compounds the documents write whole
// ("How do I stop a role from being able to log in?" is answered by LOGIN
// NOLOGIN). Only words of letters separated by one blank are joined, into
// five letters or more: two words that are no stop words ("data base"),
// or a word and the particle after it ("log in", "set up"). A stop word
// never comes first: "in active" is not "inactive", nor "a part" "apart".
func joinedPairs(s string) []compound {
	var out []compound
	prev, prevEnd := "", -1
	for _, loc := range letterRun.FindAllStringIndex(s, -1) {
		w := strings.ToLower(s[loc[0]:loc[1]])
		if prev != "" && loc[0] == prevEnd+1 && s[prevEnd] == ' ' && !stopWords[prev] && (!stopWords[w] || particles[w]) &&
			utf8.RuneCountInString(prev+w) >= 5 {
			c := compound{joined: stem(prev + w), words: [2]string{prev, w}}
			if !stopWords[w] {
				c.parts = [2]string{stem(prev), stem(w)}
			}
			out = append(out, c)
		}
		prev, prevEnd = w, loc[1]
	}
	return out
}

// particles are the adverbs that make one verb with the word before them,
// written whole as a noun ("log in", "login"; "set up", "setup").
var particles = map[string]bool{"in": true, "up": true, "out": true, "down": true, "on": true, "off": true,
	"over": true, "back": true}

// letterRun matches a word of letters (no digits, no CJK: their words are
// not written apart).
var letterRun = regexp.MustCompile(`[\p{Latin}\p{Greek}\p{Cyrillic}]+`)

// linked reports whether text writes the two words joined by a hyphen or
// an underscore.
func linked(text string, words [2]string) bool {
	l := strings.ToLower(text)
	return strings.Contains(l, words[0]+"-"+words[1]) || strings.Contains(l, words[0]+"_"+words[1])
}

// questionTerms are the terms bestPassage matches a question by: its
// terms, and the pairs joined (joinedPairs) that some unit of docs holds
// as a word and its particle, or with a hyphen or an underscore.
func questionTerms(question string, docs [][]unit) []string {
	query := uniq(terms(question))
	if alt := replaced(question); len(alt) > 0 && !asksWhy.MatchString(question) && !yesNoQuestion.MatchString(question) {
		// The asker names what they do not want ("… using Template-style
		// interpolation instead of %(name)s?"): a passage about it is the
		// one they know, not the answer, and its identifier's weight had
		// quoted "For ConfigParser-style interpolation, you specify … by
		// including %(name)s" above the Template-style sentence. A word
		// the question also writes outside the phrase stays a term. Asking
		// why ("Why does my request get a 403 instead of a 401?"), the
		// asker expected it, and the answer tells them apart; asking
		// whether ("Should I use TRUNCATE rather than DELETE …?", "Can I
		// use a colon instead of an equals sign …?"), the answer weighs
		// both ("The equals sign is the only valid divider").
		kept := slices.DeleteFunc(slices.Clone(query), func(t string) bool { return alt[t] })
		if len(kept) > 0 {
			query = kept
		}
	}
	if strings.IndexFunc(question, analyze.Unspaced) >= 0 {
		// A Chinese, Japanese or Thai question's bigrams are those of its
		// content (analyze.ContentQuery): its question words and the
		// particles that glue Japanese words (什么是, ですか, を固) are no
		// evidence, and a passage holding them ("什么是 XSLT?") is no answer.
		kept := map[string]bool{}
		for _, f := range strings.Fields(analyze.ContentQuery(question)) {
			kept[strings.ToLower(f)] = true
		}
		content := slices.DeleteFunc(slices.Clone(query), func(t string) bool {
			return strings.IndexFunc(t, analyze.Unspaced) >= 0 && !kept[t]
		})
		// A question with nothing else (one in hiragana alone,
		// すしのつくりかたは？) keeps its bigrams: they are all it has, as
		// retrieval keeps them (analyze.Query).
		if len(content) > 0 {
			query = content
		}
	}
	pairs := joinedPairs(question)
	if len(pairs) == 0 {
		return query
	}
	for _, d := range docs {
		for _, u := range d {
			for _, t := range u.terms {
				// A compound written solid (Treeprocessor, database) is
				// matched by the question's two words (bestPassage); one
				// of a word and a particle ("log in": LOGIN) by the
				// joined word, since the particle is no term; one a
				// document writes with a hyphen or an underscore
				// (line-length, line_length) is a name, and the joined
				// word is a term of its own.
				if slices.ContainsFunc(pairs, func(c compound) bool {
					return c.joined == t && (c.parts[0] == "" || linked(u.text, c.words))
				}) && !slices.Contains(query, t) {
					query = append(query, t)
				}
			}
		}
	}
	return query
}

// replaced returns the terms a question writes only in a phrase naming
// what it wants replaced ("instead of X", "rather than X", "other than
// X", to the end of the clause or the first preposition), when the
// phrase names a thing in three words or fewer: a longer one, or one
// telling what happens ("rather than having it replaced with a unique
// one"), holds the words the page that answers uses (pxssh's
// UNIQUE_PROMPT).
func replaced(question string) map[string]bool {
	locs := replacedPhrase.FindAllStringIndex(question, -1)
	if locs == nil {
		return nil
	}
	var rest strings.Builder
	alt := map[string]bool{}
	at := 0
	for _, l := range locs {
		rest.WriteString(question[at:l[0]])
		end := l[1] + strings.IndexAny(question[l[1]:]+"?", ",;?!:")
		if m := phraseEnd.FindStringIndex(question[l[1]:end]); m != nil {
			// The thing named ends where a preposition or a conjunction
			// goes on ("instead of HTML pages in my API"): what follows
			// is the question's.
			end = l[1] + m[0]
		}
		phrase := question[l[1]:end]
		ts := uniq(terms(phrase))
		if first := strings.Fields(phrase); len(ts) > maxReplacedTerms || len(first) > 0 && strings.HasSuffix(strings.ToLower(first[0]), "ing") {
			continue // left in the rest: its words are the question's
		}
		for _, t := range ts {
			alt[t] = true
		}
		at = end
	}
	rest.WriteString(question[at:])
	for _, t := range terms(rest.String()) {
		delete(alt, t)
	}
	return alt
}

// maxReplacedTerms bounds the terms of a phrase replaced reads as naming
// a thing.
const maxReplacedTerms = 3

// phraseEnd matches the word that ends the thing a replaced phrase names.
var phraseEnd = regexp.MustCompile(`(?i)\s(in|on|for|with|from|by|at|of|so|when|while|because|and|or|but|to|into|under|within|via|using|that|which)\s`)

// yesNoQuestion matches a question asking whether, by its first word.
var yesNoQuestion = regexp.MustCompile(`(?i)^\W*(can|could|should|shall|is|are|was|were|does|do|did|will|would|may|might|must|has|have)\b`)

// asksWhy matches a question asking for a reason.
var asksWhy = regexp.MustCompile(`(?i)\bwhy\b`)

// replacedPhrase opens the phrase of a question naming what the asker wants
// instead ("instead of", "rather than", "other than").
var replacedPhrase = regexp.MustCompile(`(?i)\b(?:instead\s+of|rather\s+than|other\s+than)\s`)

// TermCoverage is the share, in [0, 1], of the question's distinct content
// words (lowercased, stop words removed, lightly stemmed, as the extractive
// mode matches them) that occur in at least one of texts; 0 for a question
// without content words.
func TermCoverage(question string, texts ...string) float64 {
	return Coverage(question)(texts...)
}

// Coverage is TermCoverage with the question's terms found once, for
// measuring many texts against one question.
func Coverage(question string) func(texts ...string) float64 {
	q := uniq(terms(question))
	return func(texts ...string) float64 {
		if len(q) == 0 {
			return 0
		}
		have := map[string]bool{}
		for _, t := range texts {
			for _, w := range terms(t) {
				have[w] = true
			}
		}
		hit := 0
		for _, w := range q {
			if have[w] {
				hit++
			}
		}
		return float64(hit) / float64(len(q))
	}
}

// lastWord returns the ASCII letters that end s.
func lastWord(s string) string {
	j := len(s)
	for j > 0 && (s[j-1]|0x20 >= 'a' && s[j-1]|0x20 <= 'z') {
		j--
	}
	return s[j:]
}

// syntaxToken reports whether the "!" or "?" at u[i] closes a token of a
// shell's, a template's or a regular expression's syntax that no word
// precedes: "$?", "$!", "#!", "<%!", ".*?" (a lazy quantifier). Other marks
// before it are prose: "100%?", "C#?", "ends with #?", "start with ~?",
// "**required**?" end their sentence.
func syntaxToken(u string, i int) bool {
	if i < 1 || i >= 2 && isWordByte(u[i-2]) {
		return false
	}
	switch u[i-1 : i+1] {
	case "$?", "$!", "#!":
		return true
	case "%!":
		return i >= 2 && u[i-2] == '<'
	case "*?":
		return i >= 2 && strings.ContainsRune(".)]", rune(u[i-2]))
	}
	return false
}

// isWordByte reports an ASCII letter or digit.
func isWordByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
