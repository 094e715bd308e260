package search

import (
	"slices"
	"testing"
)

// TestTranslationsRankBelowTheQuestionsLanguage: the same paragraph in
// Portuguese, Russian and English, fused in that order for an English
// question (the translations keep the error message and identifiers the
// question quotes), comes back English first; the translations stay, in
// their order. Over documents in other languages only, the fused order is
// kept: an English manual asked in Japanese.
func TestTranslationsRankBelowTheQuestionsLanguage(t *testing.T) {
	en := "AttributeError: 'ResultSet' object has no attribute 'foo' - This usually happens because you expected find_all() to return a single tag or string. " +
		"But find_all() returns a list of tags and strings, a ResultSet object."
	pt := "AttributeError: 'ResultSet' object has no attribute 'foo' - Isso geralmente ocorre quando você espera que find_all() retorne uma única tag ou string. " +
		"Mas find_all() retorna uma lista de tags e strings, um objeto ResultSet que não é uma tag."
	ru := "AttributeError: 'ResultSet' object has no attribute 'foo' — это обычно происходит тогда, когда вы ожидаете, что find_all() вернет один тег или строку. " +
		"Но find_all() возвращает список тегов и строк — объект ResultSet."
	results := func() []Result {
		return []Result{{SourceURI: "pt", Content: pt, Score: 1}, {SourceURI: "ru", Content: ru, Score: 0.95}, {SourceURI: "en", Content: en, Score: 0.9}}
	}
	order := func(rs []Result) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.SourceURI)
		}
		return out
	}
	q := "Why do I get AttributeError: 'ResultSet' object has no attribute 'foo' after calling find_all()?"
	if got := order(discountForeign(q, results())); !slices.Equal(got, []string{"en", "pt", "ru"}) {
		t.Errorf("English question: order %q, want en, pt, ru", got)
	}
	// Asked in Portuguese, the Portuguese paragraph leads, and English
	// (another language by its function words) goes below it.
	qp := "Por que recebo AttributeError: 'ResultSet' object has no attribute 'foo' quando chamo find_all() para uma tag?"
	if got := order(discountForeign(qp, results())); got[0] != "pt" {
		t.Errorf("Portuguese question: order %q, want pt first", got)
	}
	// A question whose language its words do not tell (no function
	// words) and a Japanese one over Latin-letter documents only: the
	// Latin-letter results keep their fused order.
	for _, q := range []string{"AttributeError ResultSet find_all", "find_all() で AttributeError が出るのはなぜですか？"} {
		rs := discountForeign(q, []Result{{SourceURI: "pt", Content: pt, Score: 1}, {SourceURI: "en", Content: en, Score: 0.9}})
		if got := order(rs); !slices.Equal(got, []string{"pt", "en"}) {
			t.Errorf("%q: order %q, want the fused order pt, en", q, got)
		}
	}
	// A translation whose code outweighs its prose in letters: a Chinese
	// section around a gpg session is still Chinese.
	zh := "如果您從郵件列表獲知上游維護者所使用的 GPG 公鑰資訊，請將它作為 debian/upstream/signing-key.asc 檔案進行儲存。否則，請使用 hkp 公鑰伺服器並經由您的信任網進行驗證。\n" +
		"$ gpg --keyserver hkp://keys.gnupg.net --recv-key 80EE4A00\ngpg: requesting key 80EE4A00 from hkp server keys.gnupg.net\n" +
		"gpg: key 80EE4A00: public key \"Reuben Thomas <rrt@sc3d.org>\" imported\ngpg: no ultimately trusted keys found\ngpg: Total number processed: 1\n" +
		"$ gpg --verify hello-2.9.tar.gz.sig\ngpg: Signature made Thu 10 Oct 2013 08:49:23 AM JST using DSA key ID 80EE4A00\ngpg: Good signature from \"Reuben Thomas <rrt@sc3d.org>\""
	enGPG := "If you know the public key of the upstream maintainer from the mailing list, save it as the debian/upstream/signing-key.asc file. " +
		"Otherwise, use the hkp keyserver and verify it via your web of trust.\n$ gpg --keyserver hkp://keys.gnupg.net --recv-key 80EE4A00"
	rs := discountForeign(`gpg says "Can't check signature: public key not found" when I verify the upstream tarball; how do I fix it?`,
		[]Result{{SourceURI: "zh", Content: zh, Score: 1}, {SourceURI: "en", Content: enGPG, Score: 0.8}})
	if got := order(rs); !slices.Equal(got, []string{"en", "zh"}) {
		t.Errorf("Chinese section around a gpg session: order %q, want en, zh", got)
	}
	// Terse English reference text is English, not Italian or Spanish.
	terse := []Result{
		{SourceURI: "a", Content: "timeout – Timeout per request in seconds, e.g. 2.5; None disables it. Non-positive values are an error.", Score: 1},
		{SourceURI: "b", Content: "retries – How many times a request is tried again before the error is raised to the caller.", Score: 0.9},
	}
	if got := order(discountForeign("What does the timeout parameter do when it is None?", terse)); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("terse English: order %q, want a, b", got)
	}
}

// TestLanguageJudgedOnProse (a review's cases): code is the same in every
// language, and the parts of identifiers ("os" of os.path, "com" of
// com.example, "na" of na_values) are not Portuguese words; a question
// made of identifiers tells no language; a Japanese question naming
// identifiers is Japanese; over documents in none of the question's
// language, the fused order stands (code in no language does not rise
// above the prose that answers); a hard-wrapped paragraph whose only
// sentence end is a short line is judged on its whole text.
func TestLanguageJudgedOnProse(t *testing.T) {
	order := func(rs []Result) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.SourceURI)
		}
		return out
	}
	prose := Result{SourceURI: "prose", Content: "The project keeps its settings in a file of its own, which is read when it starts and again on reload.", Score: 0.8}
	for _, code := range []string{
		"import os\nhome = os.path.expanduser(\"~\")\npath = os.path.join(home, \".config\", \"app\")\nos.makedirs(path, exist_ok=True)",
		"package com.example.demo;\nimport com.fasterxml.jackson.databind.ObjectMapper;\nimport com.example.demo.model.User;",
		"pandas.read_csv(filepath, sep=',', na_values=None, keep_default_na=True, na_filter=True, dtype=None)",
		"[project.urls]\nHomepage = \"https://example.com\"\nSource = \"https://github.com/me/project\"",
	} {
		rs := discountForeign("How do I do this in my project, and what is the right way to write it?", []Result{{SourceURI: "code", Content: code, Score: 1}, prose})
		if got := order(rs); !slices.Equal(got, []string{"code", "prose"}) {
			t.Errorf("code %q judged foreign: order %q", code, got)
		}
	}
	en := Result{SourceURI: "prose", Content: "os.environ is a mapping of the environment, read once when the process starts; os.getenv(key) returns the value of key, or None when it is not set.", Score: 1}
	neutral := Result{SourceURI: "code", Content: "value = settings.get(\"KEY\")\nprint(value)", Score: 0.7}
	for _, q := range []string{"os.getenv vs os.environ?", "Wie setze ich den Timeout für requests.get, damit die Anfrage nicht ewig wartet?"} {
		if got := order(discountForeign(q, []Result{en, neutral})); !slices.Equal(got, []string{"prose", "code"}) {
			t.Errorf("%q: order %q, want the fused order", q, got)
		}
	}
	ja := Result{SourceURI: "ja", Content: "requests.Session はクッキーと接続を保持します。requests.get は毎回新しいセッションを作ります。", Score: 0.8}
	enJA := Result{SourceURI: "en", Content: "A requests.Session keeps cookies and connections across requests; requests.get makes a new session every time it is called.", Score: 1}
	if got := order(discountForeign("requests.Session と requests.get の違いは何ですか？", []Result{enJA, ja})); got[0] != "ja" {
		t.Errorf("Japanese question with identifiers: order %q, want ja first", got)
	}
	de := Result{SourceURI: "de", Score: 1, Content: "Das Paket wird aus dem Quellbaum mit dem Befehl\ndebuild gebaut, der die Umgebung für den Bau\nvorbereitet und die Prüfungen durchführt, bevor es\n" +
		"in das Archiv hochgeladen wird, und das Ergebnis\nliegt danach im übergeordneten Verzeichnis bereit\nund kann mit dpkg installiert werden."}
	enDE := Result{SourceURI: "en", Score: 0.8, Content: "The package is built from the source tree with debuild, which prepares the environment and runs the checks before it is uploaded."}
	if got := order(discountForeign("How is the package built from the source tree before it is uploaded?", []Result{de, enDE})); !slices.Equal(got, []string{"en", "de"}) {
		t.Errorf("hard-wrapped German: order %q, want en, de", got)
	}
}
