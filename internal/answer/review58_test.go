package answer

import (
	"strings"
	"testing"
)

// Requirements from a hostile review of the composer's rules for release
// headings, Sphinx field labels and Raises, replacements, "the following"
// and restrictions: each test pins an input on which a first version of a
// rule made the answer worse than before it, or missed the very case it
// was written for (the comments tell what that version did).

// TestReview58RaisingHeadingKeepsItsList: the Raises rule skips any list
// item whose heading terms hold "rais", so every list under a heading such
// as "Raising an issue" (CONTRIBUTING files) or "Raising the open file
// limit" can no longer open a passage. Before the rule this question
// was answered by the list ("the full log output, captured with
// RAGD_LOG_LEVEL=debug"); now the answer is the two sentences above the
// list, which do not answer it.
func TestReview58RaisingHeadingKeepsItsList(t *testing.T) {
	t.Parallel()
	src := []Source{{N: 1, Title: "CONTRIBUTING", HeadingPath: "CONTRIBUTING > Raising an issue", Titles: []string{"CONTRIBUTING", "Raising an issue"},
		Content: "Raising an issue\n\nBefore opening an issue, search the tracker for duplicates. Issues without the details below may be closed.\n\nPlease include:\n\n" +
			"- the version of ragd you are running (ragd version)\n- your operating system and PostgreSQL version\n" +
			"- the full log output, captured with RAGD_LOG_LEVEL=debug\n- the smallest set of steps that reproduces the problem\n"}}
	q := "Which log level should I set before sending logs with a bug report?"
	if r := Extractive(q, src, 0); !strings.Contains(r.Answer, "RAGD_LOG_LEVEL=debug") {
		t.Errorf("%s\nAnswer =\n%s\nwant the item naming RAGD_LOG_LEVEL=debug", q, r.Answer)
	}
}

// TestReview58WhatHappensGetsTheRaisesField: asksRaise knows "raise",
// "error" and "exception" only, but users ask "what happens if …". The
// Raises field is the entry's answer to that; before the rule it was
// quoted ("TypeError – too many (any) arguments"), now the answer is the
// signature alone and says nothing about what happens.
func TestReview58WhatHappensGetsTheRaisesField(t *testing.T) {
	t.Parallel()
	const head = "transaction – get the current transaction state"
	src := []Source{{N: 1, Title: "Connection", HeadingPath: "Connection > " + head, Titles: []string{"Connection", head},
		Content: head + "\n\nConnection.transaction()\nGet the current in-transaction status of the server\n\nReturns\nthe current in-transaction status\n\nReturn type\nint\n\n" +
			"Raises\n- TypeError – too many (any) arguments\n- TypeError – invalid connection\n\n" +
			"The status returned by this method can be TRANS_IDLE (currently idle), TRANS_ACTIVE (a command is in progress), TRANS_INTRANS (idle, in a valid transaction block), or TRANS_INERROR (idle, in a failed transaction block). TRANS_UNKNOWN is reported if the connection is bad.\n"}}
	q := "What happens if I pass an argument to transaction()?"
	if r := Extractive(q, src, 0); !strings.Contains(r.Answer, "too many (any) arguments") {
		t.Errorf("%s\nAnswer =\n%s\nwant the Raises item \"TypeError – too many (any) arguments\"", q, r.Answer)
	}
}

// TestReview58ReplacementDoesNotSweepTheSection: replacementFollows's
// "entry" branch is not limited to reference entries: in prose (no entry
// head to stop at) a question with "migrate" or "instead" in it carries
// the passage up to ten units on to any sentence saying "deprecated …
// use". "How do I migrate my data to a new server?" ("migrate" counts as
// asking for a replacement) was answered by its one sentence; now it is
// the whole paragraph down to an unrelated flag's deprecation. Likewise
// "CSV output instead of a table" drags in the JSON paragraph.
func TestReview58ReplacementDoesNotSweepTheSection(t *testing.T) {
	t.Parallel()
	migrate := []Source{{N: 1, Title: "Backup and Restore", HeadingPath: "Backup and Restore > Moving to a new server", Titles: []string{"Backup and Restore", "Moving to a new server"},
		Content: "Moving to a new server\n\nTo migrate your data to a new server, run ragd dump on the old server and ragd restore on the new one. The dump holds every tenant's documents and chunks. " +
			"Embeddings are not dumped; the new server computes them again during the restore, which can take a while for large tenants. " +
			"Keep the old server running until the restore has finished. You can check progress with ragd status. The restore refuses to run into a database that already holds tenants. " +
			"The --legacy-format flag of ragd dump is deprecated; use --format=v2 instead.\n"}}
	q := "How do I migrate my data to a new server?"
	if r := Extractive(q, migrate, 0); strings.Contains(r.Answer, "--legacy-format") {
		t.Errorf("%s\nAnswer =\n%s\nwant the dump/restore sentence without the paragraph down to --legacy-format's deprecation", q, r.Answer)
	}
	formats := []Source{{N: 1, Title: "README", HeadingPath: "README > Output formats", Titles: []string{"README", "Output formats"},
		Content: "Output formats\n\nBy default, results are printed as a table.\n\nTo write CSV, pass --csv. Columns are separated by commas. A header row names the columns.\n\n" +
			"To print JSON, pass --json. Each row becomes one object.\n\nThe --tsv flag is deprecated; use --csv --delimiter=tab instead.\n"}}
	q = "How do I get CSV output instead of a table?"
	if r := Extractive(q, formats, 0); strings.Contains(r.Answer, "--json") {
		t.Errorf("%s\nAnswer =\n%s\nwant the CSV paragraph without the JSON one", q, r.Answer)
	}
}

// TestReview58ReplacementStaysInItsListItem: in a Markdown option list
// each item is its own entry, but items never end replacementFollows's
// scan, so asked for an alternative to --output the answer runs through
// every option down to "--legacy-csv: deprecated; use --format csv
// instead", which reads as if it were the alternative asked for. Before
// the rule the answer was the --output item.
func TestReview58ReplacementStaysInItsListItem(t *testing.T) {
	t.Parallel()
	src := []Source{{N: 1, Title: "README", HeadingPath: "README > Options", Titles: []string{"README", "Options"},
		Content: "Options\n\n- --output DIR: write the results into DIR.\n- --format FMT: the output format, json or csv.\n- --quiet: suppress the progress bar.\n" +
			"- --verbose: print debug messages.\n- --legacy-csv: deprecated; use --format csv instead.\n"}}
	q := "Is there an alternative to --output for writing results to standard output?"
	if r := Extractive(q, src, 0); strings.Contains(r.Answer, "--quiet") || strings.Contains(r.Answer, "--legacy-csv") {
		t.Errorf("%s\nAnswer =\n%s\nwant the --output item without the items after it", q, r.Answer)
	}
}

// cachelibEntries is a Sphinx class page as extraction writes it, in
// cachelib's order: get_many(*keys), then has(key). "has" (like "get",
// "use") is a stop word, so has's head defines no term and the
// replacement and restriction scans, which stop only at a head that
// defines one, do not see that a new entry starts there.
func cachelibEntries(next string) []Source {
	const page = "Cache API — cachelib 0.9.0 documentation"
	return []Source{{N: 1, Title: page, HeadingPath: page + " > class cachelib.base.BaseCache", Titles: []string{page, "class cachelib.base.BaseCache"},
		Content: "delete_many(*keys)\nDeletes multiple keys at once.\n\nParameters\n- keys (str) – The function accepts multiple keys as positional arguments.\n\n" +
			"Returns\nA list containing all successfully deleted keys\n\nReturn type\nboolean\n\n" + next +
			"inc(key, delta=1)\nIncrements the value of a key by delta.\n"}}
}

// TestReview58ReplacementStopsAtTheNextEntry: asked what to use instead
// of deleting keys one by one, the answer is delete_many(); the rule's
// first version carried it on into has()'s entry to "Deprecated since version 0.9:
// Use get() and compare the result with None instead", which a reader
// takes for the replacement asked about. Before the rule the answer
// was delete_many's entry alone.
func TestReview58ReplacementStopsAtTheNextEntry(t *testing.T) {
	t.Parallel()
	src := cachelibEntries("has(key)\nChecks if a key exists in the cache without returning it.\n\nParameters\n- key (str) – the key to check\n\n" +
		"Deprecated since version 0.9: Use get() and compare the result with None instead.\n\n")
	q := "What should I use instead of calling delete() for each key?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "delete_many") || strings.Contains(r.Answer, "has(key)") || strings.Contains(r.Answer, "Use get()") {
		t.Errorf("%s\nAnswer =\n%s\nwant delete_many's entry without has()'s deprecation note", q, r.Answer)
	}
}

// TestReview58RestrictionStopsAtTheNextEntry: the same blindness in
// restrictionFollows. Asked whether delete_many returns the deleted keys,
// the answer goes on into get()'s entry to its note "A value stored as
// None cannot be told apart from a missing key …", a caveat of another
// method quoted as if it were delete_many's.
func TestReview58RestrictionStopsAtTheNextEntry(t *testing.T) {
	t.Parallel()
	src := cachelibEntries("get(key)\nLook up key in the cache and return the value for it.\n\nParameters\n- key (str) – the key to be looked up.\n\n" +
		"Note\n\nA value stored as None cannot be told apart from a missing key; use has() to check whether the key exists.\n\n")
	q := "Does delete_many return the keys it deleted?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "successfully deleted keys") || strings.Contains(r.Answer, "cannot be told apart") {
		t.Errorf("%s\nAnswer =\n%s\nwant delete_many's Returns field without get()'s note", q, r.Answer)
	}
}

// TestReview58FollowingReleaseIsNoAnnouncement: followingTail takes any
// line ending "the following" plus up to two words, with no stop, as
// announcing a list. Change-log items rarely end with a stop, and "…
// will be removed in the following release" is a complete statement: it
// now brings the next, unrelated item along.
func TestReview58FollowingReleaseIsNoAnnouncement(t *testing.T) {
	t.Parallel()
	src := []Source{{N: 1, Title: "CHANGELOG", HeadingPath: "CHANGELOG > 3.4.0", Titles: []string{"CHANGELOG", "3.4.0"},
		Content: "3.4.0\n\n- The v1 endpoints are deprecated and will be removed in the following release\n- Add a --since flag to the export command\n" +
			"- Fix a crash when the config directory is missing\n- Update the bundled CA certificates\n"}}
	q := "What happens to the deprecated v1 endpoints?"
	if r := Extractive(q, src, 0); !strings.Contains(r.Answer, "v1 endpoints") || strings.Contains(r.Answer, "--since") {
		t.Errorf("%s\nAnswer =\n%s\nwant the v1 item without the --since item", q, r.Answer)
	}
}

// TestReview58ReleaseNumberInsideAnotherNumber: withRelease leaves the
// heading out when the quote "names" the release, tested as a substring:
// release 5.2's item "We now officially support PostgreSQL 15.2" holds
// "5.2" inside "15.2", so asked which release added it, the answer does
// not say.
func TestReview58ReleaseNumberInsideAnotherNumber(t *testing.T) {
	t.Parallel()
	const log = "ChangeLog — PyGreSQL 5.2"
	src := []Source{{N: 1, Title: log, HeadingPath: log + " > Version 5.2 (2020-06-21)", Titles: []string{log, "Version 5.2 (2020-06-21)"},
		Content: "Version 5.2 (2020-06-21)\n\n- We now officially support PostgreSQL 15.2 and Python 3.8.\n- Fixed the install script so that it works with newer setuptools.\n"}}
	q := "Which PyGreSQL release added support for PostgreSQL 15.2?"
	if r := Extractive(q, src, 0); !strings.Contains(r.Answer, "Version 5.2") {
		t.Errorf("%s\nAnswer =\n%s\nwant the item under Version 5.2", q, r.Answer)
	}
}

// TestReview58CommonChangelogHeadings: releaseHeading does not know the
// two most common Markdown change-log headings, Keep a Changelog's
// "[2.1.0] - 2023-05-02" and History.md's "2.1.0 / 2023-05-02", so the
// rule never fires on them and the answer to "in which release" still
// names none.
func TestReview58CommonChangelogHeadings(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"[2.1.0] - 2023-05-02", "2.1.0 / 2023-05-02"} {
		src := []Source{{N: 1, Title: "CHANGELOG", HeadingPath: "CHANGELOG > " + h, Titles: []string{"CHANGELOG", h},
			Content: h + "\n\n- Add a --dry-run flag to the sync command that prints what would be copied\n- Support S3-compatible endpoints\n"}}
		q := "In which release was the --dry-run flag added to sync?"
		if r := Extractive(q, src, 0); !strings.Contains(r.Answer, "2.1.0") {
			t.Errorf("heading %q: %s\nAnswer =\n%s\nwant the item under its release 2.1.0", h, q, r.Answer)
		}
	}
}

// TestReview58CJKWhenQuestionGetsRelease: asksWhen is English only
// (procedureCues shows the package reads Chinese and Japanese cues), so
// the same change log asked in Chinese or Japanese which version added a
// flag answers without the version; asked in English it names it.
func TestReview58CJKWhenQuestionGetsRelease(t *testing.T) {
	t.Parallel()
	zh := []Source{{N: 1, Title: "更新日志", HeadingPath: "更新日志 > 2.1.0 (2023-05-02)", Titles: []string{"更新日志", "2.1.0 (2023-05-02)"},
		Content: "2.1.0 (2023-05-02)\n\n- sync 命令新增 --dry-run 参数，只打印将要复制的文件。\n- 支持 S3 兼容的存储端点。\n"}}
	ja := []Source{{N: 1, Title: "変更履歴", HeadingPath: "変更履歴 > v2.1.0", Titles: []string{"変更履歴", "v2.1.0"},
		Content: "v2.1.0\n\n- sync コマンドに --dry-run オプションを追加しました。\n- S3 互換ストレージに対応しました。\n"}}
	for _, c := range []struct {
		q   string
		src []Source
	}{{"sync 命令的 --dry-run 参数是在哪个版本加入的？", zh}, {"sync コマンドの --dry-run オプションはどのバージョンで追加されましたか？", ja}} {
		if r := Extractive(c.q, c.src, 0); !strings.Contains(r.Answer, "2.1.0") {
			t.Errorf("%s\nAnswer =\n%s\nwant the item under 2.1.0", c.q, r.Answer)
		}
	}
}

// hiroEntries is hiro's API page (as in fields58_test.go): run_async's
// entry ends with "Deprecated since version 1.0.0: Use run_threaded()".
func hiroEntries() []Source {
	const page = "API Documentation - hiro 1.1.1 documentation"
	return []Source{{N: 1, Title: page, HeadingPath: page, Titles: []string{page},
		Content: "hiro.run_sync(factor, func, *args, **kwargs)\nExecutes a callable within a hiro.Timeline\n\nParameters\n- factor (int) – scale factor to use for the timeline during execution\n- func (function) – the function to invoke\n\nReturns\nan instance of hiro.core.ScaledRunner\n\n" +
			"hiro.run_async(factor, func, *args, **kwargs)\nExecutes a callable in a separate thread within a hiro.Timeline\n\nParameters\n- factor (int) – scale factor to use for the timeline during execution\n- func (function) – the function to invoke\n- args – the arguments to pass to the function\n- kwargs – the keyword arguments to pass to the function\n\nReturns\nan instance of hiro.core.ScaledAsyncRunner\n\n" +
			"Deprecated since version 1.0.0: Use run_threaded()\n\n" +
			"class hiro.core.ScaledRunner(factor, func, *args, **kwargs)\nmanages the execution of a callable within a hiro.Timeline context.\n\nget_execution_time()\nReturns the real execution time of func in seconds\n"}}
}

// TestReview58IsItDeprecated: the first version made hiro's deprecation note
// quotable, but only a question matching asksReplacement reaches it. The
// plainest questions, "Is run_async deprecated?" and "What replaces
// run_async?" ("replaces" is not "replacement"), get the signature alone,
// which reads as "no, it is not deprecated".
func TestReview58IsItDeprecated(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"Is run_async deprecated?", "What replaces run_async?"} {
		if r := Extractive(q, hiroEntries(), 0); !strings.Contains(r.Answer, "run_threaded") {
			t.Errorf("%s\nAnswer =\n%s\nwant the note \"Deprecated since version 1.0.0: Use run_threaded()\"", q, r.Answer)
		}
	}
}

// TestReview58ScansStopAtANamedEntry where the
// next entry's head defines a term, neither scan crosses it: asked what
// to use instead of run_sync (not deprecated), run_async's note is not
// quoted, and asked whether get_many fetches several keys, set()'s "Keys
// cannot be longer than 250 characters" is not.
func TestReview58ScansStopAtANamedEntry(t *testing.T) {
	t.Parallel()
	q := "What should I use instead of run_sync?"
	if r := Extractive(q, hiroEntries(), 0); !strings.Contains(r.Answer, "run_sync") || strings.Contains(r.Answer, "run_threaded") {
		t.Errorf("%s\nAnswer =\n%s\nwant run_sync's entry without run_async's note", q, r.Answer)
	}
	const page = "Cache API — cachelib documentation"
	src := []Source{{N: 1, Title: page, HeadingPath: page + " > BaseCache", Titles: []string{page, "BaseCache"},
		Content: "get_many(*keys)\nReturns a list of values for the given keys. For each key an item in the list is created.\n\nParameters\n- keys (str) – The function accepts multiple keys as positional arguments.\n\n" +
			"set(key, value, timeout=None)\nAdd a new key/value to the cache (overwrites value, if key already exists in the cache).\n\nNote\n\nKeys cannot be longer than 250 characters.\n"}}
	q = "Can I fetch several keys from the cache in one call?"
	if r := Extractive(q, src, 0); !strings.Contains(r.Answer, "get_many") || strings.Contains(r.Answer, "250 characters") {
		t.Errorf("%s\nAnswer =\n%s\nwant get_many without set()'s note", q, r.Answer)
	}
}
