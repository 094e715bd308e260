package answer

import (
	"strings"
	"testing"
)

// TestHReview47WhereRelativePath: a sentence that answers "where" with a
// relative path is the answer, not one that writes a slash command
// ("/logs") or an HTTP request's route ("GET /api/reports"), which are no
// places on disk.
func TestHReview47WhereRelativePath(t *testing.T) {
	cases := []struct{ q, content, want string }{
		{
			"Where are the chat logs saved?",
			"Chat logs\n\n" +
				"The bot records the chat logs of every channel it joins.\n\n" +
				"Chat logs are saved in the logs folder beside config.yml, one file a day.\n\n" +
				"To read the saved chat logs in a channel, type /logs and a date.",
			"Chat logs are saved in the logs folder",
		},
		{
			"Where are uploaded reports stored?",
			"Reports\n\n" +
				"Every night the scheduler builds the reports of the day.\n\n" +
				"Uploaded reports are stored in the data/reports directory of the installation.\n\n" +
				"Clients fetch stored reports with GET /api/reports and a date.",
			"Uploaded reports are stored in the data/reports directory",
		},
	}
	for _, c := range cases {
		src := []Source{{Content: c.content, Title: "T", HeadingPath: "T"}}
		r := Extractive(c.q, src, 1)
		if !strings.HasPrefix(r.Answer, c.want) {
			t.Errorf("%q: answer %q, want the sentence starting %q", c.q, r.Answer, c.want)
		}
	}
}
