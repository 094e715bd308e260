package answer

import (
	"strings"
	"testing"
)

// TestShortSectionIsQuotedWhole: an FAQ entry whose first sentence holds
// the question's words and whose next sentence gives the cause is quoted
// whole, without the closing pointer elsewhere; a section running on past
// the source's end is not.
func TestShortSectionIsQuotedWhole(t *testing.T) {
	t.Parallel()
	content := "Does Scrapy manage cookies automatically?\n\n" +
		"Yes, Scrapy receives and keeps track of cookies sent by servers, and sends them back on subsequent requests, like any regular web browser does.\n\n" +
		"I get \u201cFiltered offsite request\u201d messages. How can I fix them?\n\n" +
		"Those messages (logged with DEBUG level) don't necessarily mean there is a problem, so you may not need to fix them. " +
		"Those messages are thrown by the Offsite Spider Middleware, which is a spider middleware (enabled by default) whose purpose is to filter out requests to domains outside the ones covered by the spider.\n\n" +
		"For more info see the spider middleware reference.\n\n" +
		"What is the recommended way to deploy a Scrapy crawler in production?\n\n" +
		"See Deploying Spiders."
	titles := []string{"Does Scrapy manage cookies automatically?", "I get \u201cFiltered offsite request\u201d messages. How can I fix them?",
		"What is the recommended way to deploy a Scrapy crawler in production?"}
	src := Source{N: 1, Title: "Frequently Asked Questions", HeadingPath: "Frequently Asked Questions > Does Scrapy manage cookies automatically?",
		Content: content, Titles: titles}
	q := "My log is full of 'Filtered offsite request' messages. Why, and how do I fix it?"
	r := Extractive(q, []Source{src}, 3)
	if !strings.Contains(r.Answer, "Offsite Spider Middleware") {
		t.Errorf("answer %q: want the entry's second sentence, which gives the cause", r.Answer)
	}
	if strings.Contains(r.Answer, "For more info") || strings.Contains(r.Answer, "deploy") {
		t.Errorf("answer %q: want the entry without its pointer elsewhere and without the next entry", r.Answer)
	}
	// The same entry at the source's end may go on in the next chunk:
	// only its best sentence is quoted.
	cut := src
	cut.Content = content[:strings.Index(content, "For more info")]
	cut.Titles = titles[:2]
	r = Extractive(q, []Source{cut}, 3)
	if strings.Contains(r.Answer, "Offsite Spider Middleware") {
		t.Errorf("answer %q: a section the source does not close is not quoted to its end", r.Answer)
	}
}
