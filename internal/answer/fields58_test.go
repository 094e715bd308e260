package answer

import (
	"strings"
	"testing"
)

// pygresqlQuery is a Sphinx entry laid out as extraction writes it: the
// signature, then each field's label on its own line above its value
// ("Returns" above "result values as a list of dictionaries"), the
// "Raises" list, then the description (PyGreSQL's query.html, a held-out
// trial).
func pygresqlQuery() []Source {
	const head = "dictresult/dictiter – get query values as dictionaries"
	return []Source{{N: 1, Title: "Query methods", HeadingPath: "Query methods > " + head, Titles: []string{"Query methods", head},
		Content: head + "\n\nQuery.dictresult()\nGet query values as list of dictionaries\n\nReturns\nresult values as a list of dictionaries\n\nReturn type\nlist\n\n" +
			"Raises\n- TypeError – too many (any) parameters\n- MemoryError – internal memory error\n\n" +
			"This method returns query results as a list of dictionaries which have the field names as keys.\n\n" +
			"If the query has duplicate field names, you will get the value for the field with the highest index in the query.\n"}}
}

// TestEntryFieldsStayInTheEntry: a field's label above a value in lower
// case is the entry's field, in the entry's section: read as a caption,
// "Returns result values as a list of dictionaries" started a section of
// its own, which cut the description from the signature, and "This
// method returns …" was quoted after the last Raises item instead of
// under the method it refers to.
func TestEntryFieldsStayInTheEntry(t *testing.T) {
	t.Parallel()
	src := pygresqlQuery()
	us := parseTitledUnits(src[0].Content, src[0].HeadingPath, src[0].Titles)
	var sig, ret, desc *unit
	for i := range us {
		switch {
		case strings.HasPrefix(us[i].text, "Query.dictresult()"):
			sig = &us[i]
		case strings.HasPrefix(us[i].text, "Returns: result values"):
			ret = &us[i]
		case strings.HasPrefix(us[i].text, "This method returns"):
			desc = &us[i]
		}
	}
	if sig == nil || ret == nil || desc == nil {
		t.Fatalf("units %+v: want the signature, a \"Returns: result values …\" field and the description", us)
	}
	if ret.section != sig.section || desc.section != sig.section {
		t.Errorf("sections: signature %d, Returns field %d, description %d; want one", sig.section, ret.section, desc.section)
	}
	q := "Using the classic interface, how do I get query results as a list of dictionaries keyed by column name?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "Query.dictresult()") || !strings.Contains(r.Answer, "This method returns query results") {
		t.Errorf("%s\nAnswer =\n%s\nwant the method with its description", q, r.Answer)
	}
	if strings.HasPrefix(r.Answer, "- MemoryError") || strings.HasPrefix(r.Answer, "Raises") {
		t.Errorf("%s\nAnswer =\n%s\nwant no opening at the Raises field", q, r.Answer)
	}
	if strings.Contains(r.Answer, "- TypeError") && !strings.Contains(r.Answer, "Raises:\n- TypeError") {
		t.Errorf("%s\nAnswer =\n%s\nwant the Raises items under their label", q, r.Answer)
	}
}

// TestRaisesFieldOpensNoPassage: an entry's "Raises" field, or an item of
// its list, opens a passage only for a question on errors; the prose after
// the fields is no part of the field's definition.
func TestRaisesFieldOpensNoPassage(t *testing.T) {
	t.Parallel()
	const head = "transaction – get the current transaction state"
	src := []Source{{N: 1, Title: "Connection", HeadingPath: "Connection > " + head, Titles: []string{"Connection", head},
		Content: head + "\n\nConnection.transaction()\nGet the current in-transaction status of the server\n\nReturns\nthe current in-transaction status\n\nReturn type\nint\n\n" +
			"Raises\n- TypeError – too many (any) arguments\n- TypeError – invalid connection\n\n" +
			"The status returned by this method can be TRANS_IDLE (currently idle), TRANS_ACTIVE (a command is in progress), TRANS_INTRANS (idle, in a valid transaction block), or TRANS_INERROR (idle, in a failed transaction block). TRANS_UNKNOWN is reported if the connection is bad.\n"}}
	q := "How do I find out whether my connection is idle or stuck inside a failed transaction block?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "TRANS_INERROR") || strings.Contains(r.Answer, "invalid connection") {
		t.Errorf("%s\nAnswer =\n%s\nwant the states without the Raises items", q, r.Answer)
	}
	q = "Which exception does transaction() raise on an invalid connection?"
	if r := Extractive(q, src, 0); !strings.Contains(r.Answer, "TypeError") {
		t.Errorf("%s\nAnswer =\n%s\nwant the Raises item", q, r.Answer)
	}
	const notice = "get/set_notice_receiver – custom notice receiver"
	src = []Source{{N: 1, Title: "Connection", HeadingPath: "Connection > " + notice, Titles: []string{"Connection", notice},
		Content: notice + "\n\nConnection.set_notice_receiver(func)\nSet a custom notice receiver\n\nParameters\nfunc – the custom notice receiver callback function\n\nReturn type\nNone\n\n" +
			"Raises\nTypeError – the specified notice receiver is not callable\n\n" +
			"This method allows setting a custom notice receiver callback function. When a notice or warning message is received from the server, the specified notice receiver function will be called. This function must take one parameter, the Notice object, which provides the following read-only attributes:\n\n" +
			"Notice.pgcnx\nthe connection\n\nNotice.message\nthe full message with a trailing newline\n"}}
	q = "Can I capture server NOTICE and WARNING messages in my Python code with the classic pg module?"
	if r := Extractive(q, src, 0); strings.HasPrefix(r.Answer, "Raises") || !strings.Contains(r.Answer, "notice receiver") {
		t.Errorf("%s\nAnswer =\n%s\nwant the description, not opened by the Raises field", q, r.Answer)
	}
}

// TestDeprecatedGoesOnToItsReplacement: asked what to use in place of
// something deprecated, the passage saying it is deprecated goes on to the
// sentence that names the replacement, two sentences on at most; "to use"
// in passing is no replacement, and without the question asking for one
// nothing is added.
func TestDeprecatedGoesOnToItsReplacement(t *testing.T) {
	t.Parallel()
	const page = "Getters — PyStaticConfiguration 0.10.5 documentation"
	src := []Source{{N: 1, Title: page, HeadingPath: page, Titles: []string{page, "Getters"},
		Content: "Getters\n\nFunctions used to retrieve proxies around values in a staticconf.config.ConfigNamespace. All of the getter methods return a ValueProxy. These proxies are wrappers around a configuration value. They don’t access the configuration until some attribute of the object is accessed.\n\n" +
			"Warning\n\nThis module should be considered deprecated. There are edge cases which make these getters non-obvious to use (such as passing a ValueProxy to a cmodule.\n\n" +
			"Please use staticconf.readers if you don’t need static definitions, or staticconf.schema if you do.\n\n" +
			"Example\n\nimport staticconf\n\n# Returns a ValueProxy which can be used just like an int\nmax_cycles = staticconf.get_int('max_cycles')\n"}}
	q := "Are the getter functions deprecated, and what should I use in their place?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "deprecated") || !strings.Contains(r.Answer, "Please use staticconf.readers") {
		t.Errorf("%s\nAnswer =\n%s\nwant the deprecation with its replacement", q, r.Answer)
	}
	for s, want := range map[string]bool{"Please use staticconf.readers if you don’t need static definitions.": true, "You should use the readers module.": true,
		"It was superseded by the schema module.": true, "There are edge cases which make these getters non-obvious to use.": false, "Users use it widely.": false} {
		if got := replacedBy.MatchString(s); got != want {
			t.Errorf("replacedBy(%q) = %v, want %v", s, got, want)
		}
	}
}

// hiroAPI is hiro's API page as extraction writes it: run_async's entry
// ends with "Deprecated since version 1.0.0: Use run_threaded()", which no
// stop ends, above the next class's entry.
func hiroAPI() []Source {
	const page = "API Documentation - hiro 1.1.1 documentation"
	return []Source{{N: 1, Title: page, HeadingPath: page, Titles: []string{page},
		Content: "hiro.run_sync(factor, func, *args, **kwargs)\nExecutes a callable within a hiro.Timeline\n\nParameters\n- factor (int) – scale factor to use for the timeline during execution\n- func (function) – the function to invoke\n\nReturns\nan instance of hiro.core.ScaledRunner\n\n" +
			"hiro.run_async(factor, func, *args, **kwargs)\nExecutes a callable in a separate thread within a hiro.Timeline\n\nParameters\n- factor (int) – scale factor to use for the timeline during execution\n- func (function) – the function to invoke\n- args – the arguments to pass to the function\n- kwargs – the keyword arguments to pass to the function\n\nReturns\nan instance of hiro.core.ScaledAsyncRunner\n\n" +
			"Deprecated since version 1.0.0: Use run_threaded()\n\n" +
			"class hiro.core.ScaledRunner(factor, func, *args, **kwargs)\nmanages the execution of a callable within a hiro.Timeline context.\n\nget_execution_time()\nReturns the real execution time of func in seconds\n"}}
}

// TestDeprecationNoteNamesTheReplacement: a version note that goes on
// ("Deprecated since version 1.0.0: Use run_threaded()") is a sentence of
// its entry, not the next entry's title, and asked what to use instead of
// the deprecated function, its entry is quoted on to that note.
func TestDeprecationNoteNamesTheReplacement(t *testing.T) {
	t.Parallel()
	src := hiroAPI()
	found := false
	for _, u := range parseTitledUnits(src[0].Content, src[0].HeadingPath, src[0].Titles) {
		if u.text == "Deprecated since version 1.0.0: Use run_threaded()" {
			found = true
			if u.section != 0 {
				t.Errorf("the note is in section %d, want the entry's (0)", u.section)
			}
		}
	}
	if !found {
		t.Errorf("no unit holds the deprecation note")
	}
	q := "run_async is marked deprecated, what am I supposed to use instead?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "run_threaded()") {
		t.Errorf("%s\nAnswer =\n%s\nwant the note naming run_threaded()", q, r.Answer)
	}
	q = "What does run_async do?"
	if r := Extractive(q, src, 0); strings.Contains(r.Answer, "run_threaded") {
		t.Errorf("%s\nAnswer =\n%s\nwant no deprecation note when no replacement is asked for", q, r.Answer)
	}
}

// TestFollowingMethodsBringTheList: a sentence ending "… provides the
// following methods", with no colon, announces the list under it.
func TestFollowingMethodsBringTheList(t *testing.T) {
	t.Parallel()
	const page = "Hiro context manager and utilities"
	src := []Source{{N: 1, Title: page, HeadingPath: page + " > run_sync and run_async", Titles: []string{page, "run_sync and run_async"},
		Content: "run_sync and run_async\n\nIn order to execute certain callables within a Timeline context, two shortcut functions are provided.\n\n- hiro.run_sync()\n- hiro.run_async()\n\n" +
			"Both functions return a ScaledRunner object which provides the following methods\n\n- get_execution_time(): The actual execution time of the callable\n- get_response() (will either return the actual return value of callable or raise the exception that was thrown)\n"}}
	q := "What methods does the ScaledRunner object returned by run_sync give me?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "get_execution_time()") || !strings.Contains(r.Answer, "get_response()") {
		t.Errorf("%s\nAnswer =\n%s\nwant the list of methods", q, r.Answer)
	}
	for s, want := range map[string]bool{"Both functions return a ScaledRunner object which provides the following methods": true,
		"The options are as follows": true, "Use the following:": true, "The following is true.": false, "It follows the rules": false} {
		if got := announces(s); got != want {
			t.Errorf("announces(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestCanIGetsTheEntrysRestriction: asked whether something can be done,
// an entry's passage goes on to the entry's sentence saying it is not
// supported; asked what the entry does, it does not.
func TestCanIGetsTheEntrysRestriction(t *testing.T) {
	t.Parallel()
	const page = "API reference — pyte 0.8.0 documentation"
	src := []Source{{N: 1, Title: page, HeadingPath: page + " > pyte.screens > pyte.screens.Screen", Titles: []string{page, "pyte.screens", "pyte.screens.Screen"},
		Content: "reset_mode(*modes, **kwargs)\nReset (disable) a given list of modes.\n\nParameters\n- modes (list) – modes to reset – hopefully, each mode is a constant from pyte.modes.\n\n" +
			"define_charset(code, mode)\nDefine G0 or G1 charset.\n\nParameters\n- code (str) – character set code, should be a character from \"B0UK\", otherwise ignored.\n- mode (str) – if \"(\" G0 charset is defined, if \")\" – we operate on G1.\n\n" +
			"Warning\n\nUser-defined charsets are currently not supported.\n\n" +
			"shift_in()\nSelect G0 character set.\n"}}
	q := "Can I register my own custom character set for G0 or G1?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "define_charset") || !strings.Contains(r.Answer, "currently not supported") {
		t.Errorf("%s\nAnswer =\n%s\nwant define_charset with its warning", q, r.Answer)
	}
	q = "How do I define the G0 charset?"
	if r := Extractive(q, src, 0); strings.Contains(r.Answer, "not supported") {
		t.Errorf("%s\nAnswer =\n%s\nwant no warning when not asked whether", q, r.Answer)
	}
}

// TestIsItGetsTheNextSentencesNo: asked whether something is so, a prose
// passage goes on to the next sentence of its paragraph that says it
// cannot be, when that sentence holds a question term; not to one that
// holds none.
func TestIsItGetsTheNextSentencesNo(t *testing.T) {
	t.Parallel()
	const page = "Configuration — pytest-order 1.0.1 documentation"
	src := []Source{{N: 1, Title: page, HeadingPath: page + " > --order-dependencies", Titles: []string{page, "--order-dependencies"},
		Content: "--order-dependencies\n\nIf you use pytest-dependency, the dependency markers are evaluated to reorder the tests. " +
			"pytest-dependency also has the possibility to add dependencies at runtime using pytest_dependency.depends. " +
			"These dependencies cannot be detected at collection time and therefore are not included in ordering.\n"}}
	q := "Are dependencies added at runtime with pytest_dependency.depends taken into account when ordering tests?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "at runtime using pytest_dependency.depends") || !strings.Contains(r.Answer, "cannot be detected at collection time") {
		t.Errorf("%s\nAnswer =\n%s\nwant the runtime sentence with the one saying they are not included", q, r.Answer)
	}
}
