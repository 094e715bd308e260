package answer

import (
	"strings"
	"testing"
)

// poolLifeCycle is psycopg 3's "Pool life cycle" section as its
// documentation writes it: the usual way first, the way the question asks
// for four sentences on, after a purpose ("If you want to avoid …").
func poolLifeCycle() []Source {
	return []Source{{
		N:           1,
		Title:       "Connection pools",
		HeadingPath: "Connection pools > Pool life cycle",
		Content: "Pool life cycle\n\n" +
			"A simple way to use the pool is to create a single instance of it, as a global object, and to use this object in the rest " +
			"of the program, allowing other functions, modules, threads to use it:\n\n" +
			"```\n# module db.py in your program\nfrom psycopg_pool import ConnectionPool\n\npool = ConnectionPool(conninfo, **kwargs)\n" +
			"# the pool starts connecting immediately.\n\n# in another module\nfrom .db import pool\n\ndef my_function():\n" +
			"    with pool.connection() as conn:\n        conn.execute(...)\n```\n\n" +
			"Ideally you may want to call close() when the use of the pool is finished. Failing to call close() at the end of the " +
			"program is not terribly bad: probably it will just result in some warnings printed on stderr. However, if you think " +
			"that it's sloppy, you could use the atexit module to have close() called at the end of the program.\n\n" +
			"If you want to avoid starting to connect to the database at import time, and want to wait for the application to be " +
			"ready, you can create the pool using open=False, and call the open() and close() methods when the conditions are right. " +
			"Certain frameworks provide callbacks triggered when the program is started and stopped (for instance FastAPI " +
			"startup/shutdown events): they are perfect to initiate and terminate the pool operations:\n\n" +
			"```\npool = ConnectionPool(conninfo, open=False, **kwargs)\n\n@app.on_event(\"startup\")\ndef open_pool():\n    pool.open()\n```",
	}}
}

// TestPurposeThenMeansAnswersHow: asked how, the sentence that states the
// question's purpose and then offers the means ("If you want to avoid …,
// you can create the pool using open=False") answers, not the section's
// opening around the example the question wants to avoid (a held-out
// trial on psycopg 3's documentation).
func TestPurposeThenMeansAnswersHow(t *testing.T) {
	t.Parallel()
	q := "How do I create a connection pool that does not start connecting when my module is imported?"
	r := Extractive(q, poolLifeCycle(), 0)
	if !strings.Contains(r.Answer, "you can create the pool using open=False") {
		t.Errorf("%s\nAnswer =\n%s\nwant the sentence giving open=False", q, r.Answer)
	}
	for s, want := range map[string]bool{
		"If you want to avoid starting to connect at import time, you can create the pool using open=False.": true,
		"To keep the cache small you can set maxsize.":                                                       true,
		"In order to set these parameters you can use the connection attributes isolation_level, read_only.": true,
		"You can pass verify the path to a CA_BUNDLE file.":                                                  false,
		"If the pool is closed, the worker threads stop.":                                                    false,
		"If you want to know more, see the API reference. You can use it later.":                             false,
	} {
		if got := purposeMeans.MatchString(s); got != want {
			t.Errorf("purposeMeans.MatchString(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestSentenceAfterTheExampleQualifies: a passage lacking a question term
// goes on through its section's example to the sentence right after it
// that holds the term (Flask-Login's "It should return None (not raise an
// exception) if the ID is not valid.", left out of the answer on what
// user_loader returns for an invalid ID in a held-out trial).
func TestSentenceAfterTheExampleQualifies(t *testing.T) {
	t.Parallel()
	src := []Source{{
		N:           1,
		Title:       "Flask-Login",
		HeadingPath: "Flask-Login > How it Works",
		Content: "How it Works\n\n" +
			"You will need to provide a user_loader callback. This callback is used to reload the user object from the user ID " +
			"stored in the session. It should take the str ID of a user, and return the corresponding user object. For example:\n\n" +
			"```\n@login_manager.user_loader\ndef load_user(user_id):\n    return User.get(user_id)\n```\n\n" +
			"It should return None (not raise an exception) if the ID is not valid. (In that case, the ID will manually be removed " +
			"from the session and processing will continue.)",
	}}
	q := "What should my user_loader callback return when the user ID stored in the session is not valid?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "It should return None (not raise an exception) if the ID is not valid") {
		t.Errorf("%s\nAnswer =\n%s\nwant the sentence after the example", q, r.Answer)
	}
	q = "What does the user_loader callback take?"
	if r := Extractive(q, src, 0); strings.Contains(r.Answer, "It should return None") {
		t.Errorf("%s\nAnswer =\n%s\nthe sentence after the example adds no term of this question", q, r.Answer)
	}
}

// TestListInterruptsParagraph: a list right under a paragraph, with no
// blank line between them, is read as a list, as CommonMark reads it. A
// chunk of pyparsing's manual opens with the last paragraph of a list
// item above the list's next items; read as one paragraph, the methods
// were quoted as one sentence clipped in its middle, the one the question
// needed cut out.
func TestListInterruptsParagraph(t *testing.T) {
	t.Parallel()
	content := "(Posted by @someone in this answer: https://example.org/a/1)\n" +
		"- add_condition - a simplified form of add_parse_action if the purpose of the parse action is to simply do some validation.\n" +
		"- set_break(break_flag=True) - if break_flag is True, calls pdb.set_break() as this expression is about to be parsed\n" +
		"- copy() - returns a copy of a ParserElement; can be used to use the same parse expression in different places in a grammar, with different parse actions attached to each\n" +
		"- leave_whitespace() - change default behavior of skipping whitespace before starting matching (mostly used internally to the pyparsing module, rarely used by client code)\n" +
		"- set_default_whitespace_chars(chars) - class-level method to override the default set of whitespace chars for all subsequently created ParserElements (including copies); " +
		"useful when defining grammars that treat one or more of the default whitespace characters as significant (such as a line-sensitive grammar, to omit newline from the list of ignorable whitespace)\n" +
		"- suppress() - convenience function to suppress the output of the given element, instead of wrapping it with a Suppress object."
	items := 0
	for _, u := range parseUnits(content, "Classes") {
		if u.item != "" {
			items++
		}
		if strings.Contains(u.text, "copy()") && strings.Contains(u.text, "suppress()") {
			t.Errorf("one unit holds several items: %.120q", u.text)
		}
	}
	if items < 6 {
		t.Errorf("%d list items, want 6", items)
	}
	q := "My grammar must treat line breaks as significant; how do I stop pyparsing from skipping newlines as whitespace?"
	r := Extractive(q, []Source{{N: 1, Title: "Using the pyparsing module", HeadingPath: "Classes", Content: content}}, 0)
	if !strings.Contains(r.Answer, "set_default_whitespace_chars") {
		t.Errorf("%s\nAnswer =\n%s\nwant set_default_whitespace_chars", q, r.Answer)
	}
	// A paragraph announcing its list ("Options:") is read with it, and a
	// hard-wrapped line that opens with a hyphen after an unfinished one
	// goes on with the sentence.
	for _, c := range []string{"Options:\n- --delete: remove files\n- --dry-run: print what would be copied", "The value is the count of rows\n- 1 when none."} {
		if got := splitBlocks(c, nil); len(got) != 1 {
			t.Errorf("splitBlocks(%q) gave %d blocks, want 1", c, len(got))
		}
	}
}

// TestHowLongIsAnsweredWithADuration: asked how long, the row that gives a
// duration ("Default: 365 days") answers, not another row holding the
// same words (Flask-Login's cookie settings in a held-out trial: the
// REMEMBER_COOKIE_DOMAIN row was quoted); a row that only names a
// lifetime ("bumps the lifetime") gives none.
func TestHowLongIsAnsweredWithADuration(t *testing.T) {
	t.Parallel()
	src := []Source{{
		N:           1,
		Title:       "Flask-Login",
		HeadingPath: "Flask-Login > Cookie Settings",
		Content: "Cookie Settings\n\n" +
			"The details of the cookie can be customized in the application settings.\n\n" +
			"REMEMBER_COOKIE_NAME | The name of the cookie to store the “remember me” information in. Default: remember_token\n" +
			"REMEMBER_COOKIE_DURATION | The amount of time before the cookie expires, as a datetime.timedelta object or integer seconds. Default: 365 days (1 non-leap Gregorian year)\n" +
			"REMEMBER_COOKIE_DOMAIN | If the “Remember Me” cookie should cross domains, set the domain value here (i.e. .example.com would allow the cookie to be used on all subdomains of example.com). Default: None\n" +
			"REMEMBER_COOKIE_PATH | Limits the “Remember Me” cookie to a certain path. Default: /\n" +
			"REMEMBER_COOKIE_SECURE | Restricts the “Remember Me” cookie’s scope to secure channels (typically HTTPS). Default: False\n" +
			"REMEMBER_COOKIE_REFRESH_EACH_REQUEST | If set to True the cookie is refreshed on every request, which bumps the lifetime. Works like Flask’s SESSION_REFRESH_EACH_REQUEST. Default: False",
	}}
	q := "How long does the remember me cookie last by default, and which setting changes that?"
	r := Extractive(q, src, 0)
	if !strings.HasPrefix(r.Answer, "REMEMBER_COOKIE_DURATION") {
		t.Errorf("%s\nAnswer =\n%s\nwant the REMEMBER_COOKIE_DURATION row first", q, r.Answer)
	}
	for s, want := range map[string]bool{"Default: 365 days": true, "expires after timedelta(days=31)": true, "kept for 30s": true,
		"which bumps the lifetime": false, "Default: None": false, "the last 3 entries": false} {
		if got := givesDuration.MatchString(s); got != want {
			t.Errorf("givesDuration.MatchString(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestInstructionAfterADash: an instruction may follow a dash and open
// with "just" ("Flask-Login makes it nearly transparent - just pass
// remember=True to the login_user call"); asked how to stay logged in,
// the answer goes on from the section's statement of the default to it
// (a held-out trial quoted the default alone).
func TestInstructionAfterADash(t *testing.T) {
	t.Parallel()
	src := []Source{{
		N:           1,
		Title:       "Flask-Login",
		HeadingPath: "Flask-Login > Remember Me",
		Content: "Remember Me\n\n" +
			"By default, when the user closes their browser the Flask Session is deleted and the user is logged out. " +
			"“Remember Me” prevents the user from accidentally being logged out when they close their browser. This does NOT mean " +
			"remembering or pre-filling the user’s username or password in a login form after the user has logged out.\n\n" +
			"“Remember Me” functionality can be tricky to implement. However, Flask-Login makes it nearly transparent - just pass " +
			"remember=True to the login_user call. A cookie will be saved on the user’s computer.",
	}}
	q := "How do I keep users logged in after they close and reopen their browser?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "remember=True") {
		t.Errorf("%s\nAnswer =\n%s\nwant the instruction passing remember=True", q, r.Answer)
	}
	for s, want := range map[string]bool{
		"Flask-Login makes it nearly transparent - just pass remember=True to the login_user call.": true,
		"To reset it, simply call reset().":    true,
		"The range is 1 - 10 for most values.": false,
		"Just a note: this is slow.":           false,
	} {
		if got := instructs(s); got != want {
			t.Errorf("instructs(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestHowThingsAreNowFollowsHowTheyWere: a passage ending on how things
// used to be goes on to the sentence saying how they are now (pg8000's
// release notes: "Does pg8000 still look at PGUSER?" was answered with
// the old behaviour alone), and a passage ending inside a list item goes
// on to the item's end.
func TestHowThingsAreNowFollowsHowTheyWere(t *testing.T) {
	t.Parallel()
	src := []Source{{
		N:           1,
		Title:       "Release Notes",
		HeadingPath: "Release Notes > Version 1.10.6, 2016-06-10",
		Content: "Version 1.10.6, 2016-06-10\n\n" +
			"- Fixed a problem where we weren't handling the password connection parameter correctly. Now it's handled in the same way as the 'user' and 'database' parameters.\n" +
			"- It used to be that if the 'user' parameter to the connection function was 'None', then frobsql would try and look at environment variables to find a username. " +
			"Now we just go by the 'user' parameter only, and give an error if it's None.",
	}}
	q := "Does frobsql still look at the PGUSER environment variable when I leave out the user argument?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "Now we just go by the 'user' parameter only") {
		t.Errorf("%s\nAnswer =\n%s\nwant how it is now", q, r.Answer)
	}
	for s, want := range map[string]bool{"It used to be that the cache was global.": true, "Previously, rowcount was -1.": true, "The user parameter is used.": false} {
		if got := pastState.MatchString(s); got != want {
			t.Errorf("pastState.MatchString(%q) = %v, want %v", s, got, want)
		}
	}
}

// cachelibEntry is an API entry as Sphinx renders cachelib's: the
// signature, its description, the "Parameters" field without a colon
// above one item per parameter, and a sentence after the list.
func cachelibEntry() []Source {
	return []Source{{
		N:           1,
		Title:       "Simple Memory Backend",
		HeadingPath: "Simple Memory Backend",
		Content: "Simple Memory Backend\n\n" +
			"class cachelib.simple.SimpleCache(threshold=500, default_timeout=300, **kwargs)\nBases: cachelib.base.BaseCache\n\n" +
			"Simple memory cache for single process environments. This class exists mainly for the development server and is not 100% thread safe. " +
			"It tries to use as many atomic operations as possible and no locks for simplicity but it could happen under heavy load that keys are added multiple times.\n\n" +
			"Parameters\n" +
			"- threshold (int) – the maximum number of items the cache stores before it starts deleting some.\n" +
			"- default_timeout (int) – the default timeout that is used if no timeout is specified on set(). A timeout of 0 indicates that the cache never expires.\n\n" +
			"Any additional keyword arguments will be passed to the storage backend.\n\n" +
			"add(key, value, timeout=None)\nWorks like set() but does not overwrite the values of already existing keys.",
	}}
}

// TestParameterItemBesideItsSignature: a question about what a class does
// that one of its parameters says ("How many items will SimpleCache hold
// before it starts deleting some?") is answered by the signature and that
// parameter's item beside it, and one about the sentence after the
// parameter list by that sentence: both are the entry's own, not another
// entry (cachelib's documentation, a held-out trial). The field's label
// without a colon labels the list as "Parameters:" does.
func TestParameterItemBesideItsSignature(t *testing.T) {
	t.Parallel()
	for q, want := range map[string]string{
		"How many items will the in-memory SimpleCache hold before it starts deleting some?": "threshold (int) – the maximum number of items the cache stores before it starts deleting some",
		"What happens to extra keyword arguments I give to the SimpleCache constructor?":     "Any additional keyword arguments will be passed to the storage backend",
	} {
		r := Extractive(q, cachelibEntry(), 0)
		if !strings.Contains(r.Answer, want) {
			t.Errorf("%s\nAnswer =\n%s\nwant %q", q, r.Answer, want)
		}
	}
	items := 0
	for _, u := range parseUnits(cachelibEntry()[0].Content, "Simple Memory Backend") {
		if u.item != "" && len(u.defines) > 0 {
			items++
		}
	}
	if items != 2 {
		t.Errorf("%d parameter items, want 2 (threshold, default_timeout)", items)
	}
	for head, want := range map[string]bool{"class X(threshold=500, default_timeout=300)": true, "f(*, key: str, **kwargs)": true, "f(a, b)": false} {
		if got := parameterOf(head, []string{"threshold"}) || parameterOf(head, []string{"key"}); got != want {
			t.Errorf("parameterOf(%q, threshold or key) = %v, want %v", head, got, want)
		}
	}
}

// TestBasesLineOpensNoAnswer: a class's "Bases: …" line under its
// signature (Sphinx autodoc) repeats the signature above the description,
// which carries it too: an answer opening there quoted the signature twice
// (cachelib's NullCache, a held-out trial). It answers only what the class
// derives from.
func TestBasesLineOpensNoAnswer(t *testing.T) {
	t.Parallel()
	src := []Source{{N: 1, Title: "Base API", HeadingPath: "Base API",
		Content: "Base API\n\nclass cachelib.base.NullCache(default_timeout=300)\nBases: cachelib.base.BaseCache\n\n" +
			"A cache that doesn’t cache. This can be useful for unit testing.\n\n" +
			"class cachelib.base.BaseCache(default_timeout=300)\nBaseclass for the cache systems. All the cache systems implement this API or a superset of it."}}
	q := "Which cache class should I use in unit tests?"
	r := Extractive(q, src, 0)
	if strings.Count(r.Answer, "NullCache(default_timeout=300)") != 1 || !strings.Contains(r.Answer, "useful for unit testing") {
		t.Errorf("%s\nAnswer =\n%s\nwant NullCache's signature once, with its description", q, r.Answer)
	}
	for q, want := range map[string]bool{"What is the base class of NullCache?": true, "Which class does NullCache inherit from?": true,
		"Can I subclass BaseCache?": true, "Which cache class should I use in unit tests?": false, "What does the database store?": false} {
		if got := asksBase.MatchString(q); got != want {
			t.Errorf("asksBase.MatchString(%q) = %v, want %v", q, got, want)
		}
	}
}
