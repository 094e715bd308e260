package analyze

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CompoundTerms returns the identifiers in text that contain underscores
// (effective_io_concurrency, pg_stat_activity), each lowercased with its
// underscores removed, space-separated, each once, in order of appearance.
// CJK characters end an identifier like punctuation does
// ("pg_stat_activity表" gives pgstatactivity; the 表 is Keywords' business).
//
// PostgreSQL's default text-search parser splits words at "_", so
// "effective_io_concurrency" is indexed only as effect, io, concurr. The
// joined form is indexed alongside (chunks.keywords) and added to every query,
// so an exact identifier also matches as one rare term.
func CompoundTerms(text string) string {
	var out []string
	seen := map[string]bool{}
	isWord := func(r rune) bool { return r == '_' || (unicode.IsLetter(r) || unicode.IsDigit(r)) && !Unspaced(r) }
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !isWord(r) }) {
		tok = strings.Trim(tok, "_")
		if !strings.Contains(tok, "_") || len(tok) > 100 {
			continue
		}
		joined := strings.ToLower(strings.ReplaceAll(tok, "_", ""))
		if joined == "" || seen[joined] {
			continue
		}
		seen[joined] = true
		out = append(out, joined)
	}
	return strings.Join(out, " ")
}

// HyphenatedWords returns the words of text written with hyphens
// ("auto-vacuum", "e-mail", "UTF-8"), each once, in order of appearance. A
// word is written both joined and hyphenated ("multi-column" and
// "multicolumn" are both in the PostgreSQL manual, AUTOINCREMENT is
// SQLite's "auto-increment"), and PostgreSQL's parser gives a hyphenated
// word its parts and the whole (multi-column, multi, column), never the
// joined form, so a search adds the joined form as an alternative. Words
// of two or three parts, each of letters or digits, at least one letter, up
// to 40 bytes: dates, ranges, command-line options and long compounds
// ("state-of-the-art") are not words written joined.
func HyphenatedWords(text string) []string {
	var out []string
	seen := map[string]bool{}
	isWord := func(r rune) bool { return r == '-' || (unicode.IsLetter(r) || unicode.IsDigit(r)) && !Unspaced(r) }
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !isWord(r) }) {
		if len(tok) > 40 || tok[0] == '-' || tok[len(tok)-1] == '-' || !strings.Contains(tok, "-") {
			continue
		}
		parts := strings.Split(tok, "-")
		if len(parts) > 3 || slices.Contains(parts, "") || !strings.ContainsFunc(tok, unicode.IsLetter) {
			continue
		}
		if key := strings.ToLower(tok); !seen[key] {
			seen[key] = true
			out = append(out, tok)
		}
	}
	return out
}

// FusedParts returns the parts of the words PostgreSQL's parser reads as
// one token with its parts inside: a dotted name (host:
// werkzeug.exceptions.RequestEntityTooLarge, os.path, pg_hba.conf) or a
// path (file: HTTP/1.1, TCP/IP, /etc/passwd). The token's one lexeme
// matches only the same token, so "RequestEntityTooLarge" did not find the
// class entry that writes its full name, "HTTP" was missing from documents
// that write "HTTP/1.1", and a pasted "../../etc/passwd" matched no
// "../../../etc/passwd". Parts are split at dots and slashes and kept when
// they hold a letter and two characters or more (the parser splits them
// further at underscores and hyphens): every part of a path, last first,
// and a dotted name's last (its first when the last is a file extension),
// space-separated; URLs and e-mail addresses, which the parser gives
// parts of its own, and text in scripts written without spaces are left
// alone. Documents are indexed with them (Keywords) and questions send
// them (Query), the whole token's lexeme staying beside them as the
// parser gives it, as it does for hyphenated words.
func FusedParts(text string) string { return fusedParts(text, false) }

// DocumentFusedParts is FusedParts with the leading names of dotted names
// (dottedPrefixes), for a document's index: a question sends its own
// dotted name whole, which is the lexeme a document's leading name gives.
func DocumentFusedParts(text string) string { return fusedParts(text, true) }

func fusedParts(text string, prefixes bool) string {
	var out []string
	isTok := func(r rune) bool {
		return r == '.' || r == '/' || r == '_' || r == '-' || r == '@' || r == ':' ||
			(unicode.IsLetter(r) || unicode.IsDigit(r)) && !Unspaced(r)
	}
	var toks []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !isTok(r) }) {
		// A decorator's "@" and a label's or a traceback's ":" are not the
		// name's ("@pytest.mark.parametrize", "sqlalchemy.exc.OperationalError:");
		// an "@" inside is an e-mail address's, a "://" a URL's.
		tok = strings.TrimRight(strings.TrimLeft(tok, "@"), ":")
		if len(tok) > 200 || strings.Contains(tok, "@") || strings.Contains(tok, "://") {
			continue
		}
		// Elsewhere a ":" inside separates names, each read on its own: an
		// XML element's path ("rss/channel/item/psc:chapters", which the
		// parser reads as the file "rss/channel/item/psc", a colon and
		// "chapters", so "psc" was in no lexeme and a question about it
		// was told no document mentions it), an entry point
		// ("myapp.cli:main"); a time's parts (12:30) are numbers, no names.
		toks = append(toks, strings.Split(tok, ":")...)
	}
	for _, tok := range toks {
		inner := strings.Trim(tok, "./_-")
		if !strings.Contains(inner, "/") && !innerDot(inner) {
			continue
		}
		// A path's parts are words of their own (TCP/IP, client/server,
		// /etc/passwd); a dotted name's last part is the one people
		// write alone (RequestEntityTooLarge for
		// werkzeug.exceptions.RequestEntityTooLarge): every part of the
		// API pages' qualified names (sqlalchemy.orm.Session.execute)
		// inflated their common words and lowered the SQLAlchemy trial's
		// nDCG@10 by 0.04.
		path := strings.Contains(inner, "/")
		if path {
			// A path's file name is written alone too ("config.toml" of
			// ~/.plinth/config.toml, "sources.list" of
			// /etc/apt/sources.list): whole, the parser reads it as the
			// one lexeme a question naming the file sends, and a question
			// about it was refused as naming a file no document mentions.
			if name := inner[strings.LastIndexByte(inner, '/')+1:]; innerDot(name) && strings.ContainsFunc(name, unicode.IsLetter) && !sentenceAfterDot(name) {
				out = append(out, name)
			}
		}
		parts := strings.FieldsFunc(inner, func(r rune) bool { return r == '.' || r == '/' })
		if !path && len(parts) == 2 && fileExtensions[strings.ToLower(parts[1])] {
			// A file's or a product's name: the part people write alone
			// is the first ("settings" of settings.py, "Vue" of Vue.js).
			parts = parts[:1]
		}
		for i := len(parts) - 1; i >= 0; i-- {
			p := strings.Trim(parts[i], "_-")
			if utf8.RuneCountInString(p) < 2 || !strings.ContainsFunc(p, unicode.IsLetter) {
				continue
			}
			out = append(out, p)
			if !path {
				break
			}
		}
		if prefixes && !path {
			out = append(out, dottedPrefixes(parts)...)
		}
	}
	return strings.Join(out, " ")
}

// sentenceAfterDot reports a name whose last dot opens a capitalised word
// ("server.The" of "client/server.The next …", a full stop without its
// blank): no file's extension.
func sentenceAfterDot(name string) bool {
	ext := []rune(name[strings.LastIndexByte(name, '.')+1:])
	return len(ext) >= 2 && unicode.IsUpper(ext[0]) && unicode.IsLower(ext[1])
}

// innerDot reports a dot between two letters or digits, one of them a
// letter on either side (os.path, v1.2): not a sentence's end, and not a
// number's decimal point (3.13).
func innerDot(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if s[i] != '.' {
			continue
		}
		a, _ := utf8.DecodeLastRuneInString(s[:i])
		b, _ := utf8.DecodeRuneInString(s[i+1:])
		if (unicode.IsLetter(a) || unicode.IsDigit(a)) && (unicode.IsLetter(b) || unicode.IsDigit(b)) && (unicode.IsLetter(a) || unicode.IsLetter(b)) {
			return true
		}
	}
	return false
}

// dottedPrefixes returns the leading names of a dotted name of three
// parts or more, each of two parts or more, with its last part ("request.args"
// and "args" of request.args.get; "sqlalchemy.orm", "orm",
// "sqlalchemy.orm.Session" and "Session" of sqlalchemy.orm.Session.execute),
// when every part holds a letter and the name is no host or file name. The
// parser reads a dotted name as one lexeme, so a question naming
// "request.args" matched no document that writes request.args.get(…), and
// was told no document mentions it; indexed with its leading names, such a
// document has the lexeme a question naming the object sends.
func dottedPrefixes(parts []string) []string {
	if len(parts) < 3 || len(parts) > maxDottedParts {
		return nil
	}
	for _, p := range parts {
		if !strings.ContainsFunc(p, unicode.IsLetter) {
			return nil
		}
	}
	last := strings.ToLower(parts[len(parts)-1])
	if hostEndings[last] || fileExtensions[last] || strings.EqualFold(parts[0], "www") {
		// A host (docs.python.org, db.example.com) or a file's name
		// (jquery.min.js): no object, and no question names its start.
		return nil
	}
	var out []string
	for n := 2; n < len(parts); n++ {
		// The leading name, and its last part, which a question naming
		// it sends too (FusedParts: "args" of request.args).
		out = append(out, strings.Join(parts[:n], "."), parts[n-1])
	}
	return out
}

// hostEndings are top-level domains that end a host name of three parts
// or more (docs.python.org), and no object's member: "info", "app", "dev"
// or "test" end dotted names of code as often (logging.Logger.info), whose
// leading names a question does name.
var hostEndings = map[string]bool{"com": true, "org": true, "net": true, "io": true, "edu": true, "gov": true,
	"uk": true, "de": true, "fr": true, "jp": true, "cn": true, "ru": true, "nl": true, "eu": true, "ch": true,
	"au": true, "ca": true, "localhost": true}

// maxDottedParts bounds the dotted names dottedPrefixes reads: a longer
// one is a domain, a generated name or a run of text, not an object path.
const maxDottedParts = 8

// fileExtensions are the endings of file names and of products named like
// one (Node.js), which FusedParts does not take for the name.
var fileExtensions = map[string]bool{"py": true, "js": true, "ts": true, "html": true, "htm": true, "conf": true,
	"cfg": true, "ini": true, "txt": true, "json": true, "yaml": true, "yml": true, "md": true, "rst": true,
	"sh": true, "toml": true, "xml": true, "css": true, "go": true, "rb": true, "java": true, "sql": true,
	"log": true, "pdf": true, "csv": true, "lock": true, "c": true, "h": true, "cpp": true, "php": true}

// ContainsWord reports whether text holds word with no letter or digit on
// either side, in the same capitals.
func ContainsWord(text, word string) bool { return ContainsWordOf(text, word, WordRune) }

// ContainsWordOf reports whether text holds word, in the same capitals,
// with no rune inWord reports on either side.
func ContainsWordOf(text, word string, inWord func(rune) bool) bool {
	if word == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(text[i:], word)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(text[:j])
		after, _ := utf8.DecodeRuneInString(text[j+len(word):])
		if !inWord(before) && !inWord(after) {
			return true
		}
		i = j + 1
	}
}

// WordRune reports a letter or a digit: what continues a word
// (utf8.RuneError, for the start or end of a string, does not).
func WordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Alternate is a word of the question and another way the documents may
// write it; a search adds the form as an alternative term (never a required
// one) and counts the word present when only its form is.
type Alternate struct {
	Word, Form string
	// Inflected marks a noun's other number (InflectedForms) or a word's
	// shortened or full form (AbbreviationForms), searched only where no
	// document writes the word as the question does.
	Inflected bool
}

// Alternates returns the question's hyphenated words with their joined
// forms (HyphenatedWords), its numbers in scientific notation with their
// other signs, and, under the English configuration, its words
// with the inflected form the English stemmer does not conflate with them
// (InflectedForms).
func Alternates(text, tsConfig string) []Alternate {
	var out []Alternate
	for _, w := range HyphenatedWords(text) {
		out = append(out, Alternate{Word: w, Form: strings.ReplaceAll(w, "-", "")})
	}
	for _, m := range scientificNumber.FindAllStringSubmatch(text, -1) {
		n := m[1]
		var forms []string
		for _, f := range SignedForms(n) {
			if f != n {
				forms = append(forms, f)
			}
		}
		out = append(out, Alternate{Word: n, Form: strings.Join(forms, " ")})
	}
	out = append(out, NumberedNames(text)...)
	// A URL's scheme (SchemeWords), which the parser drops from the
	// question as from documents: an alternative term, never a required
	// one, so that a question pasting a URL is not refused over the word
	// of its scheme ("… served over https://?" refused at 0.29, "no document
	// mentions “https”", over pages that write no URL; a review).
	for _, w := range strings.Fields(SchemeWords(text)) {
		out = append(out, Alternate{Word: w + "://", Form: w})
	}
	if tsConfig == "english" {
		out = append(out, InflectedForms(text)...)
		out = append(out, AbbreviationForms(text)...)
	}
	return out
}

// AbbreviationForms returns the words of text that documentation writes
// both shortened and in full ("max" and "maximum", "config" and
// "configuration", "repo" and "repository"), each with its other form,
// searched as a noun's other number is (Inflected): only where no readable
// chunk writes the word as the question does. A question asking "max rows
// for an xls export" was refused over a page saying "limited to a maximum
// of 65,000 rows" ("no document mentions “max”", a held-out trial). As
// InflectedForms, a capitalised word after the question's first is a name
// and gets no form.
func AbbreviationForms(text string) []Alternate {
	var out []Alternate
	// Words end at anything but a letter or a digit: "lib" in "html5lib"
	// is no word of its own.
	for _, w := range plainWords(text, func(r rune) bool { return !WordRune(r) || Unspaced(r) }) {
		if f, ok := abbreviations[w.lower]; ok {
			out = append(out, Alternate{Word: w.tok, Form: f, Inflected: true})
		}
	}
	return out
}

// plainWord is a word of a question as written (tok) and in lower case.
type plainWord struct{ tok, lower string }

// plainWords returns the words of text split where sep reports, each once,
// that are ASCII letters only and not capitalised after the text's first
// word: a capitalised word inside the question is a name ("Hypothesis",
// "DATABASES"), which has no other number and no shortened form.
func plainWords(text string, sep func(rune) bool) []plainWord {
	var out []plainWord
	seen := map[string]bool{}
	for i, tok := range strings.FieldsFunc(text, sep) {
		w := strings.ToLower(tok)
		if seen[w] || !IsASCIILetters(w) || i > 0 && tok[0] != w[0] {
			continue
		}
		seen[w] = true
		out = append(out, plainWord{tok, w})
	}
	return out
}

// abbreviations pairs the shortenings software documentation uses with
// their full words, both ways. Only shortenings with one reading: "doc"
// (document or documentation), "dev" (development or device), "sec"
// (seconds or security) and "init" are left out.
var abbreviations = func() map[string]string {
	m := map[string]string{}
	for _, p := range [][2]string{
		{"max", "maximum"}, {"min", "minimum"}, {"config", "configuration"}, {"configs", "configurations"},
		{"info", "information"}, {"repo", "repository"}, {"repos", "repositories"}, {"app", "application"},
		{"apps", "applications"}, {"auth", "authentication"}, {"dir", "directory"}, {"dirs", "directories"},
		{"env", "environment"}, {"param", "parameter"}, {"params", "parameters"}, {"arg", "argument"},
		{"args", "arguments"}, {"db", "database"}, {"msg", "message"}, {"msgs", "messages"},
		{"async", "asynchronous"}, {"temp", "temporary"}, {"tmp", "temporary"}, {"attr", "attribute"},
		{"attrs", "attributes"}, {"func", "function"}, {"lib", "library"}, {"libs", "libraries"},
		{"pkg", "package"}, {"spec", "specification"}, {"impl", "implementation"}, {"len", "length"},
		{"stats", "statistics"}, {"perf", "performance"}, {"var", "variable"}, {"vars", "variables"},
		{"addr", "address"}, {"conn", "connection"}, {"conns", "connections"}, {"cmd", "command"},
		{"desc", "description"}, {"err", "error"}, {"errs", "errors"}, {"ext", "extension"},
		{"img", "image"}, {"lang", "language"}, {"obj", "object"}, {"objs", "objects"},
		{"opt", "option"}, {"opts", "options"}, {"passwd", "password"}, {"pwd", "password"},
		{"src", "source"}, {"str", "string"}, {"txn", "transaction"}, {"val", "value"}, {"vals", "values"},
	} {
		m[p[0]] = p[1]
		if _, ok := m[p[1]]; !ok {
			m[p[1]] = p[0]
		}
	}
	return m
}()

// SignedForms returns a number in scientific notation written with no
// sign, "+" and "-" ("4.2E-34", "+4.2E-34", "-4.2E-34"); nil for a word
// that is no such number. PostgreSQL's parser keeps a number's sign in its
// token, so the documents' "+4.2E-34" is no match for the question's
// "4.2E-34", which is the same number.
func SignedForms(w string) []string {
	if !scientificWord.MatchString(w) {
		return nil
	}
	bare := strings.TrimLeft(w, "+-")
	return []string{bare, "+" + bare, "-" + bare}
}

// scientificPattern is a number in scientific notation, its sign included.
const scientificPattern = `[-+]?[0-9]+(?:\.[0-9]+)?[eE][-+]?[0-9]+`

var (
	// scientificNumber finds one standing as a word in a text.
	scientificNumber = regexp.MustCompile(`(?:^|[\s(])(` + scientificPattern + `)\b`)
	// scientificWord matches a word that is one.
	scientificWord = regexp.MustCompile(`^` + scientificPattern + `$`)
)

// InflectedForms returns the words of text whose singular and plural
// PostgreSQL's English (Snowball) stemmer reduces to different lexemes,
// each with its other number: the stemmer drops a final "s" after a vowel
// unless the word ends "us" or "ss", and a plural's "-es" to its stem, so
// "alias" is alia but "aliases" is alias, "analysis" analysi but
// "analyses" analys. A question that wrote one number did not match the
// documents that write the other, and its word counted as in no document
// (a false refusal). Singulars in -as get their plural in -ases (alias,
// canvas), singulars in -is of six letters or more their plural in -es
// (analysis, parenthesis: "basis" and "axis" are left alone, whose plurals
// stem to the common words base and axe); plurals in -ases of six letters
// or more get -as back, and those in -yses, -eses and -ises -is (aliases →
// alias, parentheses → parenthesis, crises → crisis). A form that is no
// word ("schemases" for "schemas", "exercisis") is a lexeme no chunk has:
// it adds nothing. A name has no plural: a capitalised word after the
// question's first gets no form.
func InflectedForms(text string) []Alternate {
	var out []Alternate
	for _, pw := range plainWords(text, func(r rune) bool { return !unicode.IsLetter(r) || Unspaced(r) }) {
		tok, w := pw.tok, pw.lower
		if len(w) < 4 {
			continue
		}
		var form string
		switch {
		case len(w) >= 6 && (strings.HasSuffix(w, "yses") || strings.HasSuffix(w, "eses") || strings.HasSuffix(w, "ises")):
			form = w[:len(w)-2] + "is"
		case len(w) >= 6 && strings.HasSuffix(w, "ases"):
			form = w[:len(w)-2]
		case strings.HasSuffix(w, "as"):
			form = w + "es"
		case len(w) >= 6 && strings.HasSuffix(w, "is"):
			form = w[:len(w)-2] + "es"
		}
		if form != "" {
			out = append(out, Alternate{Word: tok, Form: form, Inflected: true})
		}
	}
	return out
}

// IsASCIILetters reports whether w is lower-case ASCII letters only.
func IsASCIILetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// SchemeWords returns the names of the URL schemes written in text, each
// once, separated by spaces ("redis" of redis://localhost:6379, "git ssh"
// of git+ssh://…, "itpc" and "feed" of itpc:// and feed://). PostgreSQL's
// parser reads a scheme and its "://" as one protocol token, which no
// text-search configuration indexes, so a page that writes its connection
// URL postgres://… held no "postgres", and a question about converting
// itpc:// links to http:// was told no document mentions "http" (a
// held-out trial). Each scheme once: the names, not a link count.
// Documents are indexed with them (Keywords); a question sends them as
// alternatives (Alternates).
func SchemeWords(text string) string {
	if !strings.Contains(text, "://") {
		return ""
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range urlScheme.FindAllStringSubmatch(text, -1) {
		for _, part := range strings.Split(strings.ToLower(m[1]), "+") {
			if len(part) < 2 || !strings.ContainsFunc(part, unicode.IsLetter) || seen[part] {
				continue
			}
			seen[part] = true
			out = append(out, part)
		}
	}
	return strings.Join(out, " ")
}

// urlScheme matches a URL's scheme and its "://".
var urlScheme = regexp.MustCompile(`(?i)(?:^|[^a-z0-9+.-])([a-z][a-z0-9+.-]*)://`)

// NumberedNames returns the question's names written with a blank before
// a small number ("bootstrap 5", "Python 3", "HTML 5"), each with the form
// that joins them (bootstrap5, Python3, HTML5), which documentation writes
// as often: a question asking whether "bootstrap 5" is supported was
// refused over a page saying "bootstrap5 is now supported" (a held-out
// trial). The joined form is an alternative term, never a required one,
// so a form no document writes costs nothing ("page 2"). A number with a
// decimal part after it is a release ("Python 3.11") and left alone.
func NumberedNames(text string) []Alternate {
	var out []Alternate
	seen := map[string]bool{}
	for _, m := range numberedName.FindAllStringSubmatchIndex(text, -1) {
		end := m[1]
		if end < len(text) && text[end] == '.' && end+1 < len(text) && text[end+1] >= '0' && text[end+1] <= '9' {
			continue
		}
		word, number := text[m[2]:m[3]], text[m[4]:m[5]]
		w := word + " " + number
		if seen[strings.ToLower(w)] {
			continue
		}
		seen[strings.ToLower(w)] = true
		out = append(out, Alternate{Word: w, Form: word + number})
	}
	return out
}

// numberedName matches a word of three letters or more, one blank and a
// number of one or two digits that ends there ("at 5" is no name).
var numberedName = regexp.MustCompile(`\b([A-Za-z]{3,}) ([0-9]{1,2})\b`)
