package search

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/tenant"
)

func TestNameLike(t *testing.T) {
	cases := []struct {
		word  string
		first bool
		want  bool
	}{
		{"MongoDB", false, true}, {"MongoDB", true, true}, // inner capital
		{"io_method", false, true}, {"42P01", true, true}, {"ipv6", false, true}, // underscore, digits
		{"AOF", false, true}, {"RDS", true, true}, // all capitals
		{"Kubernetes", false, true}, {"Kubernetes", true, false}, // capitalised inside the sentence only
		{"index", false, false}, {"How", true, false}, {"2022", false, false}, {"I", true, false},
		{"数据库", false, false}, // no case
		// dotted identifiers
		{"os.path", true, true}, {"math.fma", false, true}, {"e.g", false, false}, {"3.13", false, false},
		{"testing.T", true, true}, {"T.testing", true, false},
	}
	for _, c := range cases {
		if got := NameLike(c.word, c.first); got != c.want {
			t.Errorf("NameLike(%q, first=%v) = %v, want %v", c.word, c.first, got, c.want)
		}
	}
}

func TestProbeWords(t *testing.T) {
	got := probeWords("How do I set up sharding in MongoDB, and what does io_method do? MongoDB again; see 42P01.")
	var words, texts []string
	var literal []bool
	for _, p := range got {
		words = append(words, p.word)
		texts = append(texts, p.text)
		literal = append(literal, p.literal)
	}
	if strings.Join(words, " ") != "MongoDB io_method 42P01" {
		t.Fatalf("words %q", words)
	}
	if strings.Join(texts, " ") != "MongoDB iomethod 42P01" {
		t.Fatalf("texts %q: an identifier is looked up joined, as CompoundTerms indexes it", texts)
	}
	if !slices.Equal(literal, []bool{false, true, false}) {
		t.Fatalf("literal %v: only the identifier with underscores must also match word for word", literal)
	}
	// (An object's attribute, importlib.import_module, is also probed by
	// its parts, for the question's own name: attributeTail.)
	own := slices.DeleteFunc(probeWords("Edit pg_hba.conf or importlib.import_module"), func(p probe) bool { return p.of != "" })
	if len(own) != 2 || own[0].text != "pghba" || own[1].text != "importmodule" {
		t.Fatalf("dotted identifiers with underscores: %+v, want their underscore parts joined as CompoundTerms indexes them", own)
	}
	// A name glued to Japanese or Chinese text is probed alone; a
	// katakana word is probed whole, by its bigrams and literally.
	if got := probeWords("テーブルをExcelで作成するには？ pg_stat_activity表记录什么"); len(got) != 3 || got[0].word != "Excel" ||
		got[1].word != "pg_stat_activity" || got[2].word != "テーブル" || got[2].text != "テー ーブ ブル" || !got[2].literal {
		t.Fatalf("names glued to CJK text: %+v, want Excel, pg_stat_activity and the katakana word", got)
	}
	many := strings.Repeat("Name ", 10) + strings.Repeat("X1 X2 X3 X4 X5 X6 X7 X8 X9 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Z1 Z2 Z3 Z4 Z5 Z6 Z7 Z8 Z9 W1 W2 W3 W4 W5 W6 W7 ", 1)
	if n := len(probeWords(many)); n != maxProbes {
		t.Fatalf("%d probes, want the cap %d", n, maxProbes)
	}
}

func TestIdentifier(t *testing.T) {
	for w, want := range map[string]bool{"pg_stat_io": true, "io_method": true, "os.path": true, "pg_hba.conf": true,
		"MongoDB": false, "42P01": false, "e.g": false, "_private": false, "v1.2": false, "Node.js": true} {
		if got := Identifier(w); got != want {
			t.Errorf("Identifier(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestCalibrationBeforeMissingIdentifier: a tenant model calibrated with
// one or two weights fewer (before the missing-identifier and the
// missing-proper-name features) gives the probabilities it gave then.
func TestCalibrationBeforeMissingIdentifier(t *testing.T) {
	for _, old := range [][]float64{
		{-2, 1, 1, 1, -1, -2, 0.5, 1, 0.1, -0.5},
		{-2, 1, 1, 1, -1, -2, 0.5, 1, 0.1, -0.5, -0.7},
	} {
		set := tenant.Settings{AnswerModel: old}
		m := TenantAnswerModel(set)
		if len(m.Weights) != len(AnswerFeatures) || m.Weights[len(m.Weights)-1] != 0 || !slices.Equal(m.Weights[:len(old)-1], old[1:]) {
			t.Fatalf("old calibration %v read as %+v, want its weights and 0 for the new features", old, m)
		}
		s := Signals{Terms: 4, KeywordCoverage: 0.4, TermCoverage: 0.5, DocumentCoverage: 0.6, MissingNames: 1, MissingIdentifiers: 1, MissingProper: 1}
		z := old[0]
		for i, x := range s.Features()[:len(old)-1] {
			z += old[i+1] * x
		}
		if got, want := m.Probability(s), 1/(1+math.Exp(-z)); math.Abs(got-want) > 1e-12 {
			t.Fatalf("probability %v, want %v as calibrated", got, want)
		}
		if !slices.Equal(set.AnswerModel, old) {
			t.Fatal("reading a calibration changed the tenant's settings")
		}
	}
}

func TestTermShare(t *testing.T) {
	idf := map[string]float64{"a": 1, "b": 3}
	if got := termShare([]string{"b", "b"}, idf, 4); got != 0.75 {
		t.Fatalf("termShare = %v, want 0.75 (each lexeme once)", got)
	}
	if got := termShare(nil, idf, 0); got != 0 {
		t.Fatalf("no idf mass: %v", got)
	}
}

func TestDefaultAnswerModelDirections(t *testing.T) {
	m := DefaultAnswerModel
	if !m.Valid() {
		t.Fatalf("default model invalid: %+v", m)
	}
	covered := func(c float64) Signals {
		return Signals{Terms: 4, KeywordCoverage: c, TermCoverage: c, DocumentCoverage: c, TopMean: c / 2, ScoreSD: c / 10}
	}
	if !(m.Probability(covered(0.1)) < m.Probability(covered(0.5)) && m.Probability(covered(0.5)) < m.Probability(covered(0.9))) {
		t.Fatal("a question better covered by the tenant's chunks must not be less answerable")
	}
	named := covered(0.8)
	named.Names, named.MissingNames = 1, 1
	if !(m.Probability(named) < m.Probability(covered(0.8))) {
		t.Fatal("a name no document contains must lower the probability")
	}
	for _, s := range []Signals{{Terms: 1, MissingNames: 1, Names: 1, AbsentShare: 1}, {Terms: 40, KeywordCoverage: 1, TermCoverage: 1, DocumentCoverage: 1, TopMean: 1}} {
		if v := m.Probability(s); v <= 0 || v >= 1 || math.IsNaN(v) {
			t.Fatalf("probability %v outside (0, 1)", v)
		}
	}
}

func TestAsksOpinion(t *testing.T) {
	for q, want := range map[string]bool{
		"Which is the best editor for Go?": true, "Should I use tabs or spaces?": true, "Is Rust better than C?": true,
		"How should the server be configured?": false, "How do I sort a list?": false, "Best practices": true,
		"My test needs a scratch folder on disk. What should I use?": false, "Where should I put my fixtures?": false,
		"Should we use microservices for our new product?": true, "Which should I pick, pytest or nose?": true,
		"How long should I boil an egg?": false,
		"Should we use microservices  ":  true, "It should work. Should I upgrade first?": true,
		"This should be fine, should we upgrade?": true,
	} {
		if got := asksOpinion(q); got != want {
			t.Errorf("asksOpinion(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestAssessReasons(t *testing.T) {
	s := &Searcher{}
	set := s.Settings(tenant.Tenant{}, nil)
	p := plan{set: set, useKeyword: true}
	legs := legResults{ranKeyword: true, idfSum: 10, idf: map[string]float64{"shard": 3, "mongodb": 7},
		kw: []legHit{{value: 2, matched: []string{"shard"}}}, missing: []string{"MongoDB"}}
	var r Response
	s.assess(p, legs, nil, &r)
	if r.ConfidenceReason != "no document mentions “MongoDB”" || r.Confidence >= *set.RefuseBelow {
		t.Fatalf("missing name: confidence %v, reason %q", r.Confidence, r.ConfidenceReason)
	}
	if math.Abs(r.TermCoverage-0.3) > 1e-12 {
		t.Fatalf("term coverage %v, want 0.3", r.TermCoverage)
	}
	// No name is missing, but common words are: they are named as the
	// question writes them.
	q := plan{set: set, useKeyword: true, req: Request{Query: "How long should sourdough bread rest before baking?"}}
	legs = legResults{ranKeyword: true, idfSum: 20, idf: map[string]float64{"long": 2, "rest": 2, "sourdough": 8, "bread": 8},
		kw: []legHit{{value: 2, matched: []string{"long", "rest"}}}, absent: []string{"sourdough", "bread"}, absentIDF: 16,
		unreadable: []string{"sourdough", "bread"}}
	var words Response
	s.assess(q, legs, nil, &words)
	if words.ConfidenceReason != "no document mentions “sourdough”, “bread”" || words.Confidence >= *set.RefuseBelow {
		t.Fatalf("absent words: confidence %v, reason %q", words.Confidence, words.ConfidenceReason)
	}
	// An opinion refused says so, not which of its words no page has.
	op := plan{set: set, useKeyword: true, req: Request{Query: "Is Debian better than Ubuntu for gaming, in your opinion?"}}
	legs = legResults{ranKeyword: true, idfSum: 20, idf: map[string]float64{"debian": 2, "ubuntu": 2, "game": 8, "opinion": 8},
		kw: []legHit{{value: 2, matched: []string{"debian"}}}, absent: []string{"game", "opinion"}, absentIDF: 16,
		unreadable: []string{"game", "opinion"}}
	var opinion Response
	s.assess(op, legs, nil, &opinion)
	if opinion.Confidence >= *set.RefuseBelow || !strings.Contains(opinion.ConfidenceReason, "asks for an opinion") {
		t.Fatalf("opinion: confidence %v, reason %q", opinion.Confidence, opinion.ConfidenceReason)
	}
	var stop Response
	s.assess(plan{set: set, useKeyword: true}, legResults{}, nil, &stop)
	if stop.Confidence != 0 || stop.ConfidenceReason == "" {
		t.Fatalf("stop words only: %+v", stop)
	}
}

func TestSignals(t *testing.T) {
	s := &Searcher{}
	set := s.Settings(tenant.Tenant{}, nil) // k1 0.9: the maximum score is idfSum·1.9
	docA, docB := uuid.New(), uuid.New()
	legs := legResults{ranKeyword: true, idfSum: 10, absentIDF: 2, idf: map[string]float64{"a": 3, "b": 5, "zz": 2},
		kw: []legHit{
			{value: 9.5, matched: []string{"a"}, chunk: chunkContent{DocumentID: docA}},
			{value: 3.8, matched: []string{"b"}, chunk: chunkContent{DocumentID: docA}},
			{value: 1.9, matched: []string{"b"}, chunk: chunkContent{DocumentID: docB}},
		}}
	p := plan{set: set, useKeyword: true, req: Request{Query: "Is a better than b in Zz?"}}
	legs.names = namesOf(p.req.Query) // as retrieve finds them
	sg := signals(p, legs, messageParams(p.req.Query, legs))
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-12 }
	if sg.Terms != 3 || !near(sg.KeywordCoverage, 0.5) || !near(sg.TermCoverage, 0.5) || !near(sg.AbsentShare, 0.2) {
		t.Errorf("terms %d, keyword coverage %v (want 0.5), term coverage %v (0.5: b alone), absent share %v (0.2)",
			sg.Terms, sg.KeywordCoverage, sg.TermCoverage, sg.AbsentShare)
	}
	if !near(sg.DocumentCoverage, 0.8) {
		t.Errorf("document coverage %v, want 0.8 (a and b together in document A's chunks)", sg.DocumentCoverage)
	}
	// Normalised scores 0.5, 0.2, 0.1, then 0, 0: mean of five 0.16.
	if !near(sg.TopMean, 0.16) {
		t.Errorf("top mean %v, want 0.16", sg.TopMean)
	}
	if want := math.Sqrt(((0.5-0.8/3)*(0.5-0.8/3) + (0.2-0.8/3)*(0.2-0.8/3) + (0.1-0.8/3)*(0.1-0.8/3)) / 3); !near(sg.ScoreSD, want) {
		t.Errorf("score sd %v, want %v", sg.ScoreSD, want)
	}
	if !sg.Opinion || sg.Names != 1 || sg.Vector {
		t.Errorf("opinion %v (want true: better), names %d (want 1: Zz), vector %v", sg.Opinion, sg.Names, sg.Vector)
	}
}

func TestAbsentWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query  string
		absent []string
		want   []string
	}{
		// Stems are matched to the words they come from.
		{"Best cookies for baking with happy kids?", []string{"cooki", "bake", "happi"}, []string{"cookies", "baking", "happy"}},
		// A joined identifier matches no word (the missing names report it);
		// a short stem needs all its letters.
		{"What is pg_stat_io in PG 17?", []string{"pgstatio", "17"}, nil},
		// Character bigrams are shown as the stretches they cover; each word
		// once.
		{"火星探测器 rockets rocket", []string{"火星", "rocket", "rocket"}, []string{"rockets", "火星"}},
		{"肉じゃがの作り方は？", []string{"肉じ", "じゃ", "ゃが", "方は"}, []string{"肉じゃが", "方は"}},
		// In Japanese, a stretch inside a katakana word or a kanji compound
		// is named as that word; Chinese, written without kana between
		// words, keeps the stretch.
		{"Excelでピボットテーブルを作る方法", []string{"excel", "ピボ"}, []string{"Excel", "ピボットテーブル"}},
		{"Debian 14 forky の新機能は何ですか？", []string{"新機"}, []string{"新機能"}},
		{"如何在Kubernetes中扩容Pod？", []string{"扩容"}, []string{"扩容"}},
	} {
		if got := absentWords(tc.query, tc.absent); !slices.Equal(got, tc.want) {
			t.Errorf("absentWords(%q, %q) = %q, want %q", tc.query, tc.absent, got, tc.want)
		}
	}
}

func TestReleases(t *testing.T) {
	for q, want := range map[string][]string{
		"What is new in PostgreSQL 18?":                       {"PostgreSQL 18"},
		"What is new in APT 3.0 in Debian 13 trixie?":         {"APT 3.0", "Debian 13"},
		"Does Python 3.12. Or OpenSSL 0.9.8 matter?":          {"Python 3.12", "OpenSSL 0.9.8"},
		"PostgreSQL 15's features":                            {"PostgreSQL 15"},
		"How do I use port 5432 and PostgreSQL 2024?":         nil,            // ports and years
		"See Section 5.3, Table 9.4 and Chapter 12":           nil,            // parts of a document
		"Is JIB 04 inactive against KDM5A?":                   nil,            // a leading zero: a code
		"Windows 10 users":                                    nil,            // a capital opening the question says nothing
		"Version 1.2.3.4 of Foo":                              nil,            // four parts
		"What changed in the release process for Node.js 30?": {"Node.js 30"}, // a dotted name
		"What does Apache httpd 2.6 bring?":                   {"httpd 2.6"},  // a product's second word
		"How do I use the config 2 file?":                     nil,            // after a word that is no name
		"What does Frobnicator v2.4 add?":                     {"Frobnicator v2.4"},
		"Is max_wal_senders 10 by default?":                   nil,       // a setting and its value
		"How do I give Bob 2 roles?":                          {"Bob 2"}, // a candidate; the documents tell a count (missingReleases)
		"Does Debian need RAM 16 GB?":                         nil,       // a quantity
		"What is in Exercise 3 and Version 2?":                nil,
		// A document of a series, after a name in capitals: three or four
		// digits; not a status code, nor a longer number.
		"How do I use PEP 735 dependency groups per RFC 9110?": {"PEP 735", "RFC 9110"},
		"Why does HTTP 404 come back, and what is ISO 8601?":   {"ISO 8601"},
		"Why does the API 401, and can RSA 2048 keys sign?":    nil, // a status code, a key size
		"Is PEP 12345 out?": nil,
	} {
		var got []string
		for _, r := range releases(q) {
			if !r.lower {
				got = append(got, r.written)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("releases(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestFamiliesAreBounded: a question naming many long identifiers has the
// families of at most maxFamilyWords of them looked for (each reads up to
// 2,000 chunks), each identifier once; the asker's own column has none.
func TestFamiliesAreBounded(t *testing.T) {
	t.Parallel()
	var ids []string
	for i := range 10 {
		ids = append(ids, fmt.Sprintf("pg_stat_thing%c", 'a'+i))
	}
	q := "Compare " + strings.Join(ids, ", ") + " and " + ids[0] + " again."
	n := namesOf(q)
	if len(n.families) != 2*maxFamilyWords {
		t.Errorf("%d families looked for, want %d (two for each of the first %d identifiers)", len(n.families), 2*maxFamilyWords, maxFamilyWords)
	}
	if f := namesOf("How do I add a boolean column is_read_only to my table?").families; len(f) != 0 {
		t.Errorf("the asker's column has families %+v", f)
	}
	if f := namesOf("What does the pg_stat_io view show?").families; len(f) != 2 {
		t.Errorf("pg_stat_io has %d families, want 2", len(f))
	}
}

// TestConfidenceIsCapped: a capped question's confidence is at most
// releaseCap whatever its probability; others' is the probability.
func TestConfidenceIsCapped(t *testing.T) {
	t.Parallel()
	s := Signals{Terms: 6, KeywordCoverage: 0.9, TermCoverage: 1, DocumentCoverage: 1, TopMean: 0.6}
	p := DefaultAnswerModel.Probability(s)
	if p <= releaseCap || DefaultAnswerModel.Confidence(s) != p {
		t.Fatalf("probability %.3f, confidence %.3f: want one above the cap, and equal", p, DefaultAnswerModel.Confidence(s))
	}
	s.Capped = true
	if got := DefaultAnswerModel.Confidence(s); got != releaseCap {
		t.Errorf("capped confidence %.3f, want %.3f", got, releaseCap)
	}
}

// TestRequestWording: the words phrasing a request are found as written in
// lower case or opening a sentence; in capitals or in code they are the
// question's subject.
func TestRequestWording(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"I would like to know what are the core hours?", []string{"would", "like", "know"}},
		{"Would I get a laptop? Please tell me.", []string{"would", "pleas", "please", "tell"}},
		{"What batteries does the thermostat use?", []string{"use"}},
		{"How does LIKE work?", nil},
		{"What does the use statement do?", nil},
		{"How does a like operator match, and what is its use?", nil},
		{"What does `use` do in the config?", nil},
		{"What changed in May for Would-be users?", nil},
		{"How do I index a column?", nil},
	} {
		got := requestWording(c.q)
		if len(got) != len(c.want) {
			t.Errorf("%q: %v, want %v", c.q, got, c.want)
			continue
		}
		for _, w := range c.want {
			if !got[w] {
				t.Errorf("%q: %v, want %v", c.q, got, c.want)
			}
		}
	}
}

// TestSentenceStarts: a word opening a later sentence is no name by its
// capital, unless the question also writes it capitalised mid-sentence; an
// abbreviation's period ends no sentence.
func TestSentenceStarts(t *testing.T) {
	t.Parallel()
	got := sentenceStarts("My worker stops. Occasionally it hangs. How do I restart it? Thanks! " +
		"Use a broker, e.g. Kafka. Kafka is fast. Then Redis. Redis and Then are names here?")
	for w, want := range map[string]bool{"Occasionally": true, "How": true, "Thanks": true, "Kafka": false, "Then": false, "Redis": false, "My": false} {
		if got[w] != want {
			t.Errorf("sentence start %q: %v, want %v (all %v)", w, got[w], want, got)
		}
	}
}

// A lower-case word before a release number is a candidate name of the
// documents' product ("setuptools 77", "python 3.13"), marked lower: it
// counts only where the documents write it before a dotted number and do
// not write the number as a version of their own (bareSpellings). A part
// of a document, a word under three letters, and a count are not.
func TestLowerCaseReleases(t *testing.T) {
	for q, want := range map[string][]string{
		"What is new in setuptools 77?":                                {"setuptools 77"},
		"does python 3.13 work with numpy 2":                           {"python 3.13", "numpy 2"},
		"How do I use the config 2 file?":                              nil, // a count, or a name: not a release
		"see section 3 and wait 5 seconds":                             nil,
		"go 1.22 or js 5":                                              nil,
		"use Django 4.2 with setuptools":                               nil, // a name: not lower
		"How do I pin my_pkg 2 in requirements? py3 2":                 nil,
		"How do I run my app with gunicorn using 4 worker processes?":  nil, // a count
		"My terminal supports 24-bit colour, is numpy 2-way merge ok?": nil, // measures
		"is numpy 2 out, and does it work with python 3 yet":           {"numpy 2", "python 3"},
	} {
		var got []string
		for _, r := range releases(q) {
			if r.lower {
				got = append(got, r.written)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("lower-case releases(%q) = %q, want %q", q, got, want)
		}
	}
	n := namesOf("Is setuptools 64 or setuptools 66.1 or Setuptools 3 out?")
	numbers, spellings := n.bareSpellings()
	wantN := []string{"64", "64", "64", "64", "64", "66.1", "66.1", "66.1", "66.1"}
	wantS := []string{"v64", "64.0", "64.0.0", "v64.0", "v64.0.0", "v66.1", "66.1", "66.1.0", "v66.1.0"}
	if !slices.Equal(numbers, wantN) || !slices.Equal(spellings, wantS) {
		t.Errorf("bareSpellings = %q, %q; want %q, %q", numbers, spellings, wantN, wantS)
	}
	names, dotted := n.releaseNames()
	if !slices.Equal(names, []string{"setuptools", "Setuptools"}) || !slices.Equal(dotted, []bool{true, false}) {
		t.Errorf("releaseNames = %q, %v", names, dotted)
	}
}

// A Python special name keeps its underscores ("my_package.__version__"),
// where underscores around an ordinary word are emphasis; an identifier
// that opens with the asker's "my_", "your_" or "My…" is the asker's own.
func TestSpecialNamesAndPlaceholders(t *testing.T) {
	for q, want := range map[string][]string{
		"read my_package.__version__ in pyproject.toml": {"read", "my_package.__version__", "in", "pyproject.toml"},
		"what does __init__ do":                         {"what", "does", "__init__", "do"},
		"an _emphasised_ word":                          {"an", "emphasised", "word"},
		"the __init__.py file":                          {"the", "__init__.py", "file"},
		"a _x_ and __ marks":                            {"a", "x", "and", "marks"},
	} {
		if got := queryWords(q); !slices.Equal(got, want) {
			t.Errorf("queryWords(%q) = %q, want %q", q, got, want)
		}
	}
	for w, want := range map[string]bool{"my_package.__version__": true, "your_app": true, "MyModel": true, "myProject.settings": true,
		"Mysql": false, "mypy": false, "my_": false, "Ourselves": false, "pg_my_table": false, "MySQLdb.connect": false, "MyISAM": false} {
		if got := placeholder(w); got != want {
			t.Errorf("placeholder(%q) = %v, want %v", w, got, want)
		}
	}
}
