package answer

import (
	"strings"
	"testing"
)

func TestReview57bScratch(t *testing.T) {
	cfg := Source{N: 1, Title: "Configuration — frobd", HeadingPath: "Configuration — frobd > Listening port",
		Content: "Listening port\n\nTo run the server on a different port, set the port option in the [server] section of frobd.conf, or pass --port on the command line. The server listens on port 7000 unless told otherwise."}
	cases := []struct {
		q    string
		srcs []Source
	}{
		{"How do I run the server on port 8080?", []Source{cfg, {N: 2, Title: "Tutorial — frobd", HeadingPath: "Tutorial — frobd > Your first request", Content: "Your first request\n\nThe examples below use port 8080. Open a second terminal and send a request with curl to see the greeting."}}},
		{"How do I run the server on port 8080?", []Source{cfg, {N: 2, Title: "Tutorial — frobd", HeadingPath: "Tutorial — frobd > Your first request", Content: "Your first request\n\nThe examples below assume the server is on port 8080. Open a second terminal and send a request with curl to see the greeting."}}},
		{"How do I run the server on port 8080?", []Source{cfg, {N: 2, Title: "Changelog — frobd", HeadingPath: "Changelog — frobd > 2.1", Content: "2.1\n\nThe server no longer crashes when port 8080 is already taken by another program."}}},
		{"How do I set the number of retries to 3?", []Source{
			{N: 1, Title: "Client — frob", HeadingPath: "Client — frob > Retries", Content: "Retries\n\nSet the number of retries with the retries option in the [client] section of frob.conf; the default is 5."},
			{N: 2, Title: "Install — frob", HeadingPath: "Install — frob > Requirements", Content: "Requirements\n\nRetries need Python 3.8 or later, because they use asyncio timeouts."}}},
		{"What does exit code 2 mean?", []Source{
			{N: 1, Title: "frob(1)", HeadingPath: "frob(1) > EXIT STATUS", Content: "EXIT STATUS\n\nAn exit code of zero means success. A usage error, such as an unknown option or a missing argument, exits with code two."},
			{N: 2, Title: "frob(1)", HeadingPath: "frob(1) > HISTORY", Content: "HISTORY\n\nVersion 2 changed the exit code of a failed download from one to three."}}},
		{"What does HTTP error 404 mean when I fetch a page?", []Source{
			{N: 1, Title: "Errors — frob", HeadingPath: "Errors — frob > Not found", Content: "Not found\n\nA not-found error means the page you fetch does not exist on the server: check the address for typos."},
			{N: 2, Title: "Errors — frob", HeadingPath: "Errors — frob > Retrying", Content: "Retrying\n\nFrob retries a fetch after a timeout, but never after a 404 or any other client error."}}},
		{"How do I upgrade from version 2 to 3?", []Source{
			{N: 1, Title: "Upgrading — frob", HeadingPath: "Upgrading — frob > Upgrading", Content: "Upgrading\n\nTo upgrade, install the new release with pip install --upgrade frob, then run frob migrate to convert your configuration file."},
			{N: 2, Title: "Changelog — frob", HeadingPath: "Changelog — frob > Release 3", Content: "Release 3\n\nVersion 3 removes the deprecated fetch_all function and requires Python 3.9."}}},
		{"I have 4 workers and 2 queues; how do I route a task to a specific queue?", []Source{
			{N: 1, Title: "Routing — frob", HeadingPath: "Routing — frob > Routing tasks", Content: "Routing tasks\n\nTo route a task to a specific queue, pass queue='name' when you call apply_async, or set task_routes in the configuration."},
			{N: 2, Title: "Workers — frob", HeadingPath: "Workers — frob > Concurrency", Content: "Concurrency\n\nEach worker starts 4 processes by default and consumes from every queue it is given."}}},
	}
	for _, c := range cases {
		r := Extractive(c.q, c.srcs, 0)
		t.Logf("%s\n=> %s\n", c.q, strings.SplitN(r.Answer, "\n", 2)[0])
	}
}
