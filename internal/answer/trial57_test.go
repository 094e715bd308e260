package answer

import (
	"slices"
	"strings"
	"testing"
)

// TestDanglingConditionGoesOn: a passage ending on a condition with no
// main clause ("However, if you need to turn this behavior off for some
// reason.", PLY's manual) goes on to the sentence that says what to do and
// the code it announces, in place of the passage's first sentences (a
// held-out trial quoted the condition alone).
func TestDanglingConditionGoesOn(t *testing.T) {
	t.Parallel()
	src := []Source{{
		N:           1,
		Title:       "PLY (Python Lex-Yacc)",
		HeadingPath: "PLY (Python Lex-Yacc) > 6.8.4 When Do Syntax Errors Get Reported",
		Content: "6.8.4 When Do Syntax Errors Get Reported\n\n" +
			"In most cases, yacc will handle errors as soon as a bad input token is detected on the input. " +
			"However, be aware that yacc may choose to delay error handling until after it has reduced one or more grammar rules first. " +
			"This behavior might be unexpected so some explanation is in order. " +
			"If the next token is bad, yacc will eventually get around to reading it and report a syntax error. " +
			"It's just a little unusual in that you might see some of your grammar rules firing immediately prior to the syntax error. " +
			"Usually, the delayed error reporting with defaulted states is harmless (and there are other reasons for wanting PLY to behave in this way). " +
			"However, if you need to turn this behavior off for some reason. You can clear the defaulted states table like this:\n\n" +
			"```\nparser = yacc.yacc()\nparser.defaulted_states = {}\n```\n\n" +
			"Disabling defaulted states is not recommended if your grammar makes use of embedded actions as described in Section 6.11.",
	}}
	q := "Why do some of my grammar rules run just before a syntax error is reported, and can I turn that off?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "parser.defaulted_states = {}") {
		t.Errorf("%s\nAnswer =\n%s\nwant the code that turns it off", q, r.Answer)
	}
	for s, want := range map[string]bool{
		"However, if you need to turn this behavior off for some reason.": true,
		"If the file is missing.":                      true,
		"When the pool is closed.":                     true,
		"But unless a timeout is given.":               true,
		"If you need to turn it off, clear the table.": false,
		"If the file is missing then the call fails.":  false,
		"When asked, the server replies.":              false,
		"Use the flag if you need it.":                 false,
	} {
		if got := danglingCondition(s); got != want {
			t.Errorf("danglingCondition(%q) = %v, want %v", s, got, want)
		}
	}
}

// mp3Attributes is mutagen's MPEGInfo entry as extraction writes it: an
// attribute list whose names are code and whose descriptions start in
// lower case (Sphinx's "Useful attributes").
func mp3Attributes() []Source {
	return []Source{{
		N:           1,
		Title:       "MP3 — mutagen",
		HeadingPath: "MP3 — mutagen",
		Content: "MP3\n\nMPEG audio stream information and tags.\n\nclass mutagen.mp3.MP3(filething)\nAn MPEG audio (usually MPEG-1 Layer 3) file.\n\n" +
			"class mutagen.mp3.MPEGInfo\nMPEG audio stream information\n\nParse information about an MPEG audio file.\n\nUseful attributes:\n\n" +
			"sample_rate\naudio sample rate, in Hz\n\nType\nint\n\n" +
			"encoder_info\na string containing encoder name and possibly version. In case a lame tag is present this will start with \"LAME \", if unknown it is empty, otherwise the text format is undefined.\n\n" +
			"Type\nmutagen.text\n\n" +
			"encoder_settings\na string containing a guess about the settings used for encoding. The format is undefined and depends on the encoder.\n\n" +
			"class mutagen.mp3.EasyMP3(filething)\nLike MP3, but uses EasyID3 for tags.",
	}}
}

// TestNamedTermDefinesLowerCaseDescription: a name written as code on its
// own line ("encoder_info") above a description starting in lower case is
// a definition, not a code block; read as code, it was never quoted for
// which encoder made an MP3 file (a held-out trial on mutagen).
func TestNamedTermDefinesLowerCaseDescription(t *testing.T) {
	t.Parallel()
	var found bool
	for _, u := range parseUnits(mp3Attributes()[0].Content, "MP3 — mutagen") {
		if strings.HasPrefix(u.text, "encoder_info: a string containing encoder name") {
			found = true
			if u.kind != unitSentence || !slices.Contains(u.defines, "encoder_info") {
				t.Errorf("encoder_info's description: kind %d, defines %q; want a sentence defining encoder_info", u.kind, u.defines)
			}
		}
		if u.kind == unitCode && strings.Contains(u.text, "a string containing") {
			t.Errorf("description read as code: %q", u.text)
		}
	}
	if !found {
		t.Errorf("no unit \"encoder_info: a string containing encoder name …\"")
	}
	for l, want := range map[string]bool{"encoder_info": true, "mutagen.File": true, "close()": true, "Note": false, "the options": false, "...": false} {
		if got := namedTerm(l); got != want {
			t.Errorf("namedTerm(%q) = %v, want %v", l, got, want)
		}
	}
}

// nose2Parallel are the three sources `ragd ask` gave for what setting
// the multiprocess plugin's processes to 0 does, over nose2's
// documentation (a held-out trial): its page's opening and Usage section,
// its "Do I Really Care?" section, and the config-file options of the
// plugin-writing guide.
func nose2Parallel() []Source {
	return []Source{
		{N: 1, Title: "Running Tests in Parallel with Multiple Processes — nose2 0.12.0 documentation", HeadingPath: "Running Tests in Parallel with Multiple Processes — nose2 0.12.0 documentation > Usage",
			Content: "Running Tests in Parallel with Multiple Processes\n\nNote\n\nNew in version 0.3\n\nUse the mp plugin to enable distribution of tests across multiple processes. Doing this may speed up your test run if your tests are heavily IO or CPU bound. But it imposes an overhead cost that is not trivial, and it complicates the use of test fixtures and may conflict with plugins that are not designed to work with it.\n\nUsage\n\nTo activate the plugin, include the plugin module in the plugins list in [unittest] section in a config file:\n\n[unittest]\nplugins = nose2.plugins.mp\n\nOr pass the module with the --plugin command-line option:\n\nnose2 --plugin=nose2.plugins.mp\n\nThen configure the number of processes to run. You can do that either with the -N option:\n\nnose2 -N 2\n\nor by setting processes in the [multiprocess] section of a config file:\n\n[multiprocess]\nprocesses = 2\n\nNote\n\nIf you make the plugin always active by setting always-on in the [multiprocess] section of a config file, but do not set processes or pass -N, the number of processes defaults to the number of CPUs available. Also note that a value of 0 will set the actual number of processes to the number of CPUs on the computer.\n\nShould one wish to specify the use of internet sockets for interprocess communications, specify the bind_address setting in the [multiprocess] section of the config file, for example:\n\n[multiprocess]\nbind_address = 127.0.0.1:1024\n\nThis will bind to port 1024 of 127.0.0.1. Also:\n\n[multiprocess]\nbind_address = 127.1.2.3\n\nwill bind to any random open port on 127.1.2.3. Any internet address or host-name which python can recognize as such, bind, and connect is acceptable. While 0.0.0.0 can be use for listening, it is not necessarily an address to which the OS can connect. When the port address is 0 or omitted, a random open port is used. If the setting is omitted or blank, then sockets are not used unless nose is being executed on Windows. In which case, an address on the loop back interface and a random port are used. Whenever used, processes employ a random shared key for authentication."},
		{N: 2, Title: "Running Tests in Parallel with Multiple Processes — nose2 0.12.0 documentation", HeadingPath: "Running Tests in Parallel with Multiple Processes — nose2 0.12.0 documentation > Guidelines for Plugin Authors > Do I Really Care?",
			Content: "Do I Really Care?\n\nIf you answer yes to any of the following questions, then your plugin will not work with multiprocess testing without modification:\n\n- Does your plugin load tests?\n- Does your plugin capture something that happens during test execution?\n- Does your plugin require user interaction during test execution?\n- Does your plugin set executeTests in startTestRun?\n\nHere’s how to handle each of those cases.\n\nLoading Tests\n\n- Implement registerInSubprocess() as suggested to enable your plugin in the test runner processes.\n\nCapturing Test Execution State\n\n- Implement registerInSubprocess() as suggested to enable your plugin in the test runner processes.\n- Be wary of setting event.metadata unconditionally. Your plugin will execute in the main process and in the test runner processes, and will see setTestOutcome() and testOutcome() events in both processes. If you unconditionally set a key in event.metadata, the plugin instance in the main process will overwrite anything set in that key by the instance in the subprocess.\n- If you need to write something to a file, implement stopSubprocess() to write a file in each test runner process."},
		{N: 3, Title: "Writing Plugins — nose2 0.12.0 documentation", HeadingPath: "Writing Plugins — nose2 0.12.0 documentation > Config File Options",
			Content: "Config File Options\n\nPlugins may specify a config file section that holds their configuration by setting their configSection attribute. All plugins, regardless of whether they specify a config section, have a config attribute that holds a nose2.config.Config instance. This will be empty of values if the plugin does not specify a config section or if no loaded config file includes that section.\n\nPlugins should extract the user’s configuration selections from their config attribute in their __init__ methods. Plugins that want to use nose2’s Sphinx extension to automatically document themselves must do so.\n\nConfig file options may be extracted as strings, ints, booleans or lists.\n\nYou should provide reasonable defaults for all config options."},
	}
}

// TestValueTheQuestionSetsIsAnswered: asked what happens when a setting
// is set to a value, the sentence that states that value answers, not the
// example setting another one (the held-out trial quoted "nose2 -N 2" and
// "processes = 2" for what 0 does). A number inside a quoted message is
// the message's, not a value asked about.
func TestValueTheQuestionSetsIsAnswered(t *testing.T) {
	t.Parallel()
	q := "What happens if I set processes to 0 in the multiprocess config section?"
	r := Extractive(q, nose2Parallel(), 0)
	if !strings.Contains(r.Answer, "a value of 0 will set the actual number of processes") {
		t.Errorf("%s\nAnswer =\n%s\nwant the sentence on a value of 0", q, r.Answer)
	}
	for msg, want := range map[string][]string{
		"I get '3 is not valid under any of the given schemas' when I set limit to 5; what does a limit of 0 do?": {"0", "5"},
		"How do I upgrade from version 2 to 3?":                  nil,
		"How do I run the server on port 8080?":                  nil,
		"What happens if I set processes=0 or processes to `4`?": {"0", "4"},
	} {
		query := terms(msg)
		var vals []string
		for i := range valueTerms(msg, query) {
			vals = append(vals, query[i])
		}
		slices.Sort(vals)
		if !slices.Equal(vals, want) {
			t.Errorf("valueTerms(%q) = %q, want %q", msg, vals, want)
		}
	}
}

// TestVersionHeadingsAreSections: a change log's version headings are one
// word each ("1.3.2", "1.3.1"); read as captions, the fix listed under
// 1.3.1 was quoted in one passage with 1.3.2's items and cited as 1.3.2's
// (a held-out trial on Paste Deploy's news page told the wrong release).
// A word that extraction read as a heading is a section's title.
func TestVersionHeadingsAreSections(t *testing.T) {
	t.Parallel()
	const page = "Paste Deployment News"
	src := []Source{{
		N:           1,
		Title:       page,
		HeadingPath: page + " > 1.3.2",
		Titles:      []string{page, "1.3.2", "1.3.1", "1.3"},
		Content: "1.3.2\n\n- Added paste.deploy.converters.asint().\n- fixed use sections overwriting the config's __file__ value with the use'd filename.\n" +
			"- paste.deploy.loadwsgi now supports variable expansion in the DEFAULT section of config files (unlike plain ConfigParser).\n\n" +
			"1.3.1\n\n- Fix appconfig config loading when using a config file with filter-with in it (previously you'd get TypeError: iteration over non-sequence)\n\n" +
			"1.3\n\n- Added scheme option to PrefixMiddleware, so you can force a scheme (E.g., when proxying an HTTPS connection over HTTP).",
	}}
	q := "I get TypeError: iteration over non-sequence when calling appconfig on a file with filter-with; which release fixed it?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "Fix appconfig config loading") || strings.Contains(r.Answer, "variable expansion") {
		t.Errorf("%s\nAnswer =\n%s\nwant 1.3.1's fix alone, not with 1.3.2's items", q, r.Answer)
	}
	for w, want := range map[string]bool{"1.3.1": true, "v2.0": true, "0.23.0b1": true, "Note": false, "DESCRIPTION": false, "2024": false, "v": false} {
		if got := releaseNumber(w); got != want {
			t.Errorf("releaseNumber(%q) = %v, want %v", w, got, want)
		}
	}
	for _, u := range parseTitledUnits(src[0].Content, src[0].HeadingPath, src[0].Titles) {
		if strings.HasPrefix(u.text, "Fix appconfig") && u.section == 0 {
			t.Errorf("1.3.1's item is in the first section: %+v", u)
		}
	}
}

// objgraphChains is the source `ragd ask` gave for what find_backref_chain
// returns when no chain is found, over objgraph's documentation (a
// held-out trial): find_ref_chain's entry, then find_backref_chain's,
// whose "Returns [obj] if such a chain could not be found." comes after
// its example.
func objgraphChains() []Source {
	return []Source{
		{N: 1, Title: "objgraph — objgraph 3.5.0 documentation", HeadingPath: "objgraph — objgraph 3.5.0 documentation > Traversing and Displaying Object Graphs",
			Content: "Traversing and Displaying Object Graphs\n\nobjgraph.find_ref_chain(obj, predicate[, max_depth=20, extra_ignore=()])\nFind a shortest chain of references leading from obj.\n\nThe end of the chain will be some object that matches your predicate.\n\npredicate is a function taking one argument and returning a boolean.\n\nmax_depth limits the search depth.\n\nextra_ignore can be a list of object IDs to exclude those objects from your search.\n\nExample:\n\n>>> find_ref_chain(obj, lambda x: isinstance(x, MyClass))\n[obj, ..., <MyClass object at ...>]\n\nReturns [obj] if such a chain could not be found.\n\nNew in version 1.7.\n\nobjgraph.find_backref_chain(obj, predicate[, max_depth=20, extra_ignore=()])\nFind a shortest chain of references leading to obj.\n\nThe start of the chain will be some object that matches your predicate.\n\npredicate is a function taking one argument and returning a boolean.\n\nmax_depth limits the search depth.\n\nextra_ignore can be a list of object IDs to exclude those objects from your search.\n\nExample:\n\n>>> find_backref_chain(obj, is_proper_module)\n[<module ...>, ..., obj]\n\nReturns [obj] if such a chain could not be found.\n\nChanged in version 1.5: Returns obj instead of None when a chain could not be found.\n\nobjgraph.show_chain(chain[, ..., highlight=None, filename=None, extra_info=None, refcounts=False, shortnames=True])\nShow a chain (or several chains) of object references.\n\nUseful in combination with find_ref_chain() or find_backref_chain(), e.g.\n\n>>> show_chain(find_backref_chain(obj, is_proper_module))\n\nYou can specify if you want that chain traced backwards or forwards by passing a backrefs keyword argument, e.g.\n\n>>> show_chain(find_ref_chain(obj, is_proper_module),\n...            backrefs=False)\n\nIdeally this shouldn’t matter, but for some objects gc.get_referrers() and gc.get_referents() are not perfectly symmetrical.\n\nYou can specify highlight, extra_info, refcounts, shortnames, filename or output arguments like for show_backrefs() or show_refs().\n\nNew in version 1.5.\n\nChanged in version 1.7: New parameter: backrefs.\n\nChanged in version 2.0: New parameter: output.\n\nobjgraph.show_backrefs(objs[, max_depth=3, extra_ignore=(), filter=None, too_many=10, highlight=None, filename=None, extra_info=None, refcounts=False, shortnames=True])\nGenerate an object reference graph ending at objs.\n\nThe graph will show you what objects refer to objs, directly and indirectly.\n\nobjs can be a single object, or it can be a list of objects. If unsure, wrap the single object in a new list.\n\nfilename if specified, can be the name of a .dot or a image file, whose extension indicates the desired output format; note that output to a specific format is entirely handled by GraphViz: if the desired format is not supported, you just get the .dot file. If filename and output are not specified, show_backrefs will try to display the graph inline (if you’re using IPython), otherwise it’ll try to produce a .dot file and spawn a viewer (xdot). If xdot is not available, show_backrefs will convert the .dot file to a .png and print its name."},
	}
}

// TestWhatItReturnsIsQuoted: asked what a function returns, the sentence
// of its entry that says what it returns is quoted beside the signature,
// whatever the signature's weight; the same sentence of the entry above
// (find_ref_chain's) is not.
func TestWhatItReturnsIsQuoted(t *testing.T) {
	t.Parallel()
	q := "What does find_backref_chain return when it cannot find any matching chain of references?"
	r := Extractive(q, objgraphChains(), 0)
	if !strings.Contains(r.Answer, "Returns [obj] if such a chain could not be found.") && !strings.Contains(r.Answer, "Returns [obj] if such a chain could not be found [") {
		t.Errorf("%s\nAnswer =\n%s\nwant the entry's Returns sentence", q, r.Answer)
	}
	if strings.Index(r.Answer, "Returns [obj]") < strings.Index(r.Answer, "find_backref_chain(") {
		t.Errorf("%s\nAnswer =\n%s\nwant find_backref_chain's own Returns sentence, after its signature", q, r.Answer)
	}
	for s, want := range map[string]bool{
		"What does find_backref_chain return when it cannot find a chain?": true,
		"What is the return value of parse()?":                             true,
		"What is returned if the key is missing?":                          true,
		"How do I return early from a hook?":                               false,
	} {
		if got := asksReturn.MatchString(s); got != want {
			t.Errorf("asksReturn(%q) = %v, want %v", s, got, want)
		}
	}
}
