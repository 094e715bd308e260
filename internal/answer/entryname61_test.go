package answer

import (
	"strings"
	"testing"
)

// TestEntryNamedByItsHeadingIsNamedInTheAnswer: a configuration page whose
// entries are headed by their option and never write it ("Consider you have
// several test modules … set the group order scope to “module”" under
// "--order-group-scope") answers "how do I" with the option, which only the
// heading names. Said once per section; a module's dotted name or a heading of
// words is not written; nor is a name the question or the quote already has.
func TestEntryNamedByItsHeadingIsNamedInTheAnswer(t *testing.T) {
	t.Parallel()
	src := func(path, content string) []Source {
		return []Source{{N: 1, ChunkID: "c1", SourceURI: "https://order.docs.test/configuration.html", Title: "Configuration", HeadingPath: path, Content: content}}
	}
	const body = "Consider you have several test modules which you want to order, but you don't want to mix the tests of several modules because the module setup is costly. " +
		"In this case you can set the group order scope to module, meaning that first the tests are ordered inside each module.\n\n" +
		"For example, a module whose tests have only negative numbers is ordered at the end."
	q := "Module setup is costly, so how do I order tests without mixing tests from different modules together?"
	r := Extractive(q, src("Configuration > --order-group-scope", body), 3)
	if !strings.HasPrefix(r.Answer, "--order-group-scope: Consider") {
		t.Errorf("the option heading the entry is not named first:\n%s", r.Answer)
	}
	if n := strings.Count(r.Answer, "--order-group-scope"); n != 1 {
		t.Errorf("the option is named %d times, want once:\n%s", n, r.Answer)
	}
	r = Extractive(q, src("Configuration > ORDER_GROUP_SCOPE", body), 3)
	if !strings.HasPrefix(r.Answer, "ORDER_GROUP_SCOPE: ") {
		t.Errorf("the setting heading the entry is not named first:\n%s", r.Answer)
	}
	for _, path := range []string{"Configuration > Ordering modules", "API > pytest_order.settings", "Configuration", "pytest-order(1) > OPTIONS", "Settings > OPTIONS > Note"} {
		if r := Extractive(q, src(path, body), 3); !strings.HasPrefix(r.Answer, "Consider") {
			t.Errorf("heading %q is written before the quote:\n%s", path, r.Answer)
		}
	}
	named := "How do I use --order-group-scope to keep modules apart?"
	if r := Extractive(named, src("Configuration > --order-group-scope", body), 3); strings.Contains(r.Answer, "--order-group-scope:") {
		t.Errorf("the option the question names is written again:\n%s", r.Answer)
	}
}
