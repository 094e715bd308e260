package answer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// celeryResults is a chunk of Celery's configuration reference: each
// setting's name alone on a line (a Sphinx setting directive's heading),
// then its default and what it does.
const celeryResults = "result_expires\n\nDefault: Expire after 1 day.\n\n" +
	"Time (in seconds, or a timedelta object) for when after stored task tombstones will be deleted.\n\n" +
	"A built-in periodic task will delete the results after this time (celery.backend_cleanup), assuming that celery beat is enabled. The task runs daily at 4am.\n\n" +
	"result_cache_max\n\nDefault: Disabled by default.\n\nEnables client caching of results.\n\n" +
	"This is the total number of results to cache before older results are evicted.\n\n" +
	"Example:\n\nresult_backend = 'rpc://'\nresult_persistent = False"

// TestSettingNameLabelsItsDescription: a setting's name alone on its line
// above a description is the term the description defines, joined to its
// first sentence ("result_expires: Default: …"), not a line of code of its
// own, which the answer had quoted glued under the previous setting's
// example, or left out, answering "Which setting …?" without the name. It
// defines the name, not the name's words. A name a sentence announces
// ("Example:") is code.
func TestSettingNameLabelsItsDescription(t *testing.T) {
	t.Parallel()
	var got []string
	for _, u := range parseUnits(celeryResults, "Configuration > Task result backend settings") {
		got = append(got, fmt.Sprintf("%d:%s:%v", u.kind, u.text, u.defines))
	}
	for _, want := range []string{
		"1:result_expires: Default: Expire after 1 day.:[result_expires]",
		"1:result_cache_max: Default: Disabled by default.:[result_cache_max]",
		"3:result_backend = 'rpc://'\nresult_persistent = False:[]",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("units =\n%s\nwant among them %q", strings.Join(got, "\n"), want)
		}
	}
	for _, g := range got {
		if strings.HasPrefix(g, "3:result_expires") || strings.HasPrefix(g, "3:result_cache_max") {
			t.Errorf("setting name quoted as code: %q", g)
		}
	}
	src := []Source{{N: 1, HeadingPath: "Configuration > Task result backend settings", Content: celeryResults}}
	r := Extractive("Which setting controls how long task results are kept before they are deleted?", src, 0)
	if !strings.Contains(r.Answer, "result_expires") {
		t.Errorf("Answer =\n%s\nwant the setting's name", r.Answer)
	}
	// A label after code, its default a field shaped like code ("Default:
	// {} (empty mapping).") is no continuation of the code above it: it
	// was quoted inside the previous setting's example.
	var after []string
	for _, u := range parseUnits("This setting customizes the schema of the tables:\n\n"+
		"database_table_schemas = {\n    'task': 'celery',\n}\n\ndatabase_table_names\n\nDefault: {} (empty mapping).\n\n"+
		"This setting customizes the table names.", "") {
		after = append(after, fmt.Sprintf("%d:%s", u.kind, u.text))
	}
	if want := "1:database_table_names: Default: {} (empty mapping)."; !slices.Contains(after, want) {
		t.Errorf("units =\n%s\nwant among them %q", strings.Join(after, "\n"), want)
	}
	for _, l := range []string{"task_soft_time_limit", "app.conf.beat_schedule"} {
		if !settingLabel(l) {
			t.Errorf("settingLabel(%q) = false", l)
		}
	}
	for _, l := range []string{"Note", "celery", "os.path", "$ celery purge", "result_expires = 3600"} {
		if settingLabel(l) {
			t.Errorf("settingLabel(%q) = true", l)
		}
	}
}

// TestContractionAndConditionLeanBack: "It’s …" leans on the sentence
// before it as "It is …" does, and so does a condition holding the
// reference ("If enabled they …"): quoted from there, the answer's "it"
// and "they" pointed at nothing ("It’s not for terminating the task …"
// read as if revoking itself must never be called).
func TestContractionAndConditionLeanBack(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"It’s not for terminating the task, it’s for terminating the process.": true,
		"They're kept for a day.":                             true,
		"If enabled they can drastically reduce performance.": true,
		"When this is set, the worker restarts.":              true,
		"If you want to stop the worker, send TERM.":          false,
		"Its default is one day.":                             true,
		"Italics are written with one underscore.":            false,
	} {
		if got := opensWithBackReference(s); got != want {
			t.Errorf("opensWithBackReference(%q) = %v, want %v", s, got, want)
		}
	}
	d := parseUnits("Short lived sessions are disabled by default. If enabled they can drastically reduce performance. "+
		"For example, errors like MySQL server has gone away can be fixed by enabling short lived sessions.", "")
	if from, _ := complete(d, 1, 3, 5, []string{"mysql", "gon"}, false, false, false); from != 0 {
		t.Errorf("passage from %d, want it to start at the sentence \"they\" refers to", from)
	}
}

// TestProblemGoesOnToItsFix: a passage that states a problem's cause goes
// on to the sentence of its section that gives the fix ("To solve the
// problem, …"), a few sentences on: the cause alone left the asker where
// they were. A fix that announces a list it cannot bring is left out.
func TestProblemGoesOnToItsFix(t *testing.T) {
	t.Parallel()
	src := []Source{{N: 1, HeadingPath: "Calling Tasks > ETA and Countdown", Content: "Warning\n\n" +
		"With RabbitMQ and a countdown over 15 minutes the worker fails with PRECONDITION_FAILED.\n\n" +
		"Since version 3.8.15 the default value for consumer_timeout is 15 minutes. Since version 3.8.17 it was increased to 30 minutes. " +
		"See Delivery Acknowledgement Timeout for more information.\n\n" +
		"To solve the problem, in rabbitmq.conf you should specify the consumer_timeout parameter greater than or equal to your countdown value."}}
	r := Extractive("Why does the default consumer_timeout value make my countdown tasks fail?", src, 0)
	if !strings.Contains(r.Answer, "To solve the problem, in rabbitmq.conf you should specify the consumer_timeout parameter") {
		t.Errorf("Answer =\n%s\nwant the fix after the cause", r.Answer)
	}
	d := parseUnits("The warning lets us know the columns overlap. It may also place NULL into this column. "+
		"To solve this, we need all three of the following features:\n\n- one\n- two", "")
	if _, to := complete(d, 0, 1, 3, []string{"column"}, false, false, false); to > 2 {
		t.Errorf("passage ends at unit %d (%q), want it to stop before a fix announcing a list", to, d[to-1].text)
	}
	if !remedyCue.MatchString("The solution is to use the on_commit callback.") || remedyCue.MatchString("To solve equations, use solve().") {
		t.Error("remedyCue")
	}
	for s, want := range map[string]bool{
		"Alternatively, the function can also be used to launch editors.":                               false,
		"Either identify and stop the other program, or use flask run --port 5001 to pick another one.": true,
		"Either way, the session is closed.":                                                            false,
		"Either of these settings can be changed at run time.":                                          false,
		"As an example, consider a table of orders.":                                                    false,
	} {
		if remedyCue.MatchString(s) != want {
			t.Errorf("remedyCue(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestSymptomGoesOnToTheWayAround: a passage that describes the situation
// the question is in (the error a busy port gives, no response object yet)
// goes on to the sentence after it that gives the way out, as it does to
// one that names a fix (h-trial29: the answers quoted the error messages
// and stopped before "Either identify and stop the other program, or use
// flask run --port 5001").
func TestSymptomGoesOnToTheWayAround(t *testing.T) {
	t.Parallel()
	src := []Source{{N: 1, HeadingPath: "Development Server > Address already in use", Content: "Address already in use\n\n" +
		"It may have one of the following messages:\n\n" +
		"- OSError: [Errno 98] Address already in use\n" +
		"- OSError: [WinError 10013] An attempt was made to access a socket in a way forbidden by its access permissions\n\n" +
		"Either identify and stop the other program, or use flask run --port 5001 to pick a different port.\n\n" +
		"You can use netstat or lsof to identify what process id is using a port."}}
	r := Extractive("OSError: [Errno 98] Address already in use", src, 0)
	if !strings.Contains(r.Answer, "flask run --port 5001") {
		t.Errorf("Answer =\n%s\nwant the way around after the error", r.Answer)
	}
}

// TestOperatorIsAQuestionTerm: the answer to a question about an operator
// quotes the passage that writes it, not the one that says "operator"
// most (h-trial30: "what does the ~ operator do" was answered with "For
// performance, Jinja outputs operators directly when compiling").
func TestOperatorIsAQuestionTerm(t *testing.T) {
	t.Parallel()
	src := []Source{
		{N: 1, HeadingPath: "Extensions > Operators", Content: "For performance, Jinja outputs operators directly when compiling. " +
			"The operator table maps each operator to a builtin function."},
		{N: 2, HeadingPath: "Expressions > Other Operators", Content: "in: Perform a sequence or mapping containment test.\n\n" +
			"~ (tilde): Converts all operands into strings and concatenates them."},
	}
	r := Extractive("what does the ~ operator do", src, 0)
	if !strings.HasPrefix(r.Answer, "~ (tilde): Converts all operands") {
		t.Errorf("Answer =\n%s\nwant the tilde's entry", r.Answer)
	}
}

// TestTemplateEllipsisIsNoSentenceEnd: "{% ... %}" in a list of a template
// language's delimiters is syntax, not the end of a sentence: split there,
// the answer read "{%  [1]... %} for Statements" (h-trial30).
func TestTemplateEllipsisIsNoSentenceEnd(t *testing.T) {
	t.Parallel()
	src := []Source{{N: 1, HeadingPath: "Template Designer Documentation > Synopsis", Content: "The default Jinja delimiters are configured as follows:\n\n" +
		"- {% ... %} for Statements\n- {{ ... }} for Expressions to print to the template output\n- {# ... #} for Comments not included in the template output"}}
	r := Extractive("What are the default Jinja delimiters for statements and comments?", src, 0)
	if strings.Contains(r.Answer, "{%  [1]") || strings.Contains(r.Answer, "{#  [1]") || !strings.Contains(r.Answer, "{% ... %} for Statements") {
		t.Errorf("Answer =\n%s\nwant the delimiters whole", r.Answer)
	}
}

// TestSupportDoesNotRepeatTheExample: a supporting passage whose example
// is the one the answer already quotes is left out; documentation repeats
// its examples, and the answer quoted the same block twice (h-trial30).
func TestSupportDoesNotRepeatTheExample(t *testing.T) {
	t.Parallel()
	code := "{% set ns = namespace(found=false) %}\n{% for item in items %}\n    {% if item.check_something() %}\n        {% set ns.found = true %}\n    {% endif %}\n{% endfor %}\nFound: {{ ns.found }}"
	src := []Source{
		{N: 1, HeadingPath: "Templates > Assignments", Content: "Please keep in mind that it is not possible to set variables inside a block and have them show up outside of it. " +
			"As of version 2.10 more complex use cases can be handled using namespace objects which allow propagating of changes across scopes:\n\n" + code},
		{N: 2, HeadingPath: "Global Functions > namespace", Content: "Initial values can be provided as a dict, as keyword arguments, or both (same behavior as the dict constructor) to a loop's namespace:\n\n" + code},
	}
	r := Extractive("I set a flag with {% set found = true %} inside a for loop but after the loop it's false again. How do I keep the value?", src, 0)
	if n := strings.Count(r.Answer, "{% set ns.found = true %}"); n != 1 {
		t.Errorf("the example is quoted %d times:\n%s", n, r.Answer)
	}
}

// TestPassageStopsBeforeTheNextEntry: a passage over a reference list's
// entry does not run into the next entry for the example between them:
// dictsort's answer ended with "escape(value): Replace the characters &,
// <, >, …" (h-trial30).
func TestPassageStopsBeforeTheNextEntry(t *testing.T) {
	t.Parallel()
	src := []Source{{N: 1, HeadingPath: "Templates > List of Builtin Filters", Content: "jinja-filters.default(value: V, default_value: V = '', boolean: bool = False) → V\nIf the value is undefined it will return the passed default value, otherwise the value of the variable:\n\n{{ my_variable|default('my_variable is not defined') }}\n\nThis will output the value of my_variable if the variable was defined, otherwise 'my_variable is not defined'. If you want to use default with variables that evaluate to false you have to set the second parameter to true:\n\n{{ ''|default('the string was empty', true) }}\n\nChanged in version 2.11: It’s now possible to configure the Environment with ChainableUndefined to make the default filter work on nested elements and attributes that may contain undefined values in the chain without getting an UndefinedError.\n\nAliases:\nd\n\njinja-filters.dictsort(value: Mapping[K, V], case_sensitive: bool = False, by: 'te.Literal[\"key\", \"value\"]' = 'key', reverse: bool = False) → List[Tuple[K, V]]\nSort a dict and yield (key, value) pairs. Python dicts may not be in the order you want to display them in, so sort them first.\n\n{% for key, value in mydict|dictsort %}\n    sort the dict by key, case insensitive\n\n{% for key, value in mydict|dictsort(reverse=true) %}\n    sort the dict by key, case insensitive, reverse order\n\n{% for key, value in mydict|dictsort(true) %}\n    sort the dict by key, case sensitive\n\n{% for key, value in mydict|dictsort(false, 'value') %}\n    sort the dict by value, case insensitive\n\njinja-filters.escape(value)\nReplace the characters &, <, >, ', and \" in the string with HTML-safe sequences. Use this if you need to display text that might contain such characters in HTML.\n\nIf the object has an __html__ method, it is called and the return value is assumed to already be safe for HTML.\n\nParameters:\ns – An object to be converted to a string and escaped.\n\nReturns:\nA Markup string with the escaped text.\n\nAliases:\ne\n\n"}}
	r := Extractive("How do I loop over a dict in a template sorted by key?", src, 0)
	if !strings.Contains(r.Answer, "mydict|dictsort") || strings.Contains(r.Answer, "Replace the characters") {
		t.Errorf("Answer =\n%s\nwant dictsort's entry and example, without escape's", r.Answer)
	}
}

// TestSentencePointingAboveBringsItsCode: a sentence whose subject is the
// code above it ("The context processor above makes …") is quoted with
// that code (h-trial29: the processor was left out).
func TestSentencePointingAboveBringsItsCode(t *testing.T) {
	t.Parallel()
	src := []Source{
		{N: 1, HeadingPath: "Templates > Standard Context", Content: "The following global variables are available within Jinja2 templates by default:\n\n" +
			"config\nThe current configuration object (flask.Flask.config). This variable is available in every template.\n\n" +
			"request\nThe current request object (flask.request). This variable is unavailable if the template was rendered without an active request context."},
		{N: 2, HeadingPath: "Templates > Context Processors", Content: "Context Processors\n\nTo inject new variables automatically into the context of a template, context processors exist in Flask. " +
			"A context processor is a function that returns a dictionary. The keys and values of this dictionary are then merged with the template context, for all templates in the app:\n\n" +
			"@app.context_processor\ndef inject_user():\n    return dict(user=g.user)\n\n" +
			"The context processor above makes a variable called user available in the template with the value of g.user. " +
			"This example is not very interesting because g is available in templates anyways, but it gives an idea how this works."},
	}
	r := Extractive("How do I make a variable like the current user available in every template without passing it to each render_template call?", src, 0)
	if !strings.Contains(r.Answer, "def inject_user():") {
		t.Errorf("Answer =\n%s\nwant the processor the sentence points at", r.Answer)
	}
	for s, want := range map[string]bool{
		"The context processor above makes a variable available.": true,
		"The above code registers a filter.":                      true,
		"This example above shows a loop.":                        true,
		"The value above 100 is rejected.":                        false,
		"Above all, keep it short.":                               false,
		"The CPU load climbs above normal under load.":            false,
		"The table above lists the defaults.":                     false,
	} {
		if pointsAbove(s) != want {
			t.Errorf("pointsAbove(%q) = %v, want %v", s, !want, want)
		}
	}
}
