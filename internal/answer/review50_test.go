package answer

import (
	"strings"
	"testing"
)

// Review 50: cases that break the three rules of 2f6dc09 (foreign
// supporting passages, the how-to passage reaching the means, code quoted
// whole up to 20 lines and cut between statements beyond).

// TestR50EnglishAbbreviationsAreNotItalian: a terse API reference line
// (Sphinx field lists, CLI flag tables: "Timeout per request, e.g. 200ms
// or 1s") is English, but "e.g." gives the words "e" and "g", "i.e." gives
// "i" and "e", "per", "non-" (non-zero, non-blocking) give "per" and
// "non": all Italian function words, while such a line has almost no
// English ones ("the", "of", "to"). The supporting sentence below was
// dropped as foreign under an English question; written "for example"
// instead of "e.g." it was quoted. Terse English must not be taken for
// Italian because of Latin abbreviations.
func TestR50EnglishAbbreviationsAreNotItalian(t *testing.T) {
	t.Parallel()
	q := "How do I set a timeout per request in Requests?"
	guide := Source{N: 1, Title: "Requests: Advanced Usage", HeadingPath: "Advanced Usage > Timeouts",
		Content: "Timeouts\n\nMost requests to external servers should have a timeout attached, in case the server is not responding in a timely manner. " +
			"To set a timeout for a request, pass the timeout parameter to the request method, as in requests.get(url, timeout=5).",
		Titles: []string{"Timeouts"}}
	ref := Source{N: 2, Title: "Requests: API Reference", HeadingPath: "API Reference > Sessions > Session.request",
		Content: "Constructs a Request, prepares it and sends it. Returns Response object.\n\n" +
			"timeout: Timeout per request in seconds, e.g. 2.5; None disables it."}
	r := Extractive(q, []Source{guide, ref}, 3)
	if !strings.Contains(r.Answer, "None disables it") {
		t.Errorf("answer %q: the English reference line was left out as foreign", r.Answer)
	}
	// The signal itself, on lines as man pages and API references write them.
	for _, s := range []string{
		"timeout: Timeout per request in seconds, e.g. 2.5; None disables it.",
		"Returns non-zero on failure, e.g. EINVAL.",
		"Sets non-blocking I/O mode on a file descriptor, i.e. O_NONBLOCK.",
		"Maximum number of retries per connection; non-negative integer, e.g. 3.",
		"Per-user crontab files live in /var/spool/cron/crontabs, i.e. one file per user.",
	} {
		if foreign("How do I configure it?", []unit{{kind: unitSentence, text: "Set the timeout in the configuration file."}}, []unit{{kind: unitSentence, text: s}}) {
			t.Errorf("foreign(English question, %q) = true", s)
		}
	}
}

// TestR50JapaneseSentenceWithIdentifiers: Japanese technical writing names
// its API in Latin letters ("to_csv() の文字コードは encoding 引数で指定します"),
// and one kanji is a word where an identifier is many letters: counted by
// letters, such a sentence is "latin" and was dropped as foreign under the
// Japanese question it answers. The answer kept the tutorial's "specify
// the encoding" and lost the sentence naming the encoding argument.
func TestR50JapaneseSentenceWithIdentifiers(t *testing.T) {
	t.Parallel()
	tutorial := Source{N: 1, Title: "pandas 入門", HeadingPath: "pandas 入門 > CSV ファイルの書き出し",
		Content: "CSV ファイルの書き出し\n\nデータフレームを CSV ファイルに書き出すには to_csv() を使います。Excel で開く CSV ファイルが文字化けする場合は、to_csv() に文字コードを指定します。",
		Titles:  []string{"CSV ファイルの書き出し"}}
	ref := Source{N: 2, Title: "pandas API リファレンス", HeadingPath: "pandas API リファレンス > DataFrame.to_csv",
		Content: "to_csv() の文字コードは encoding 引数で指定します (既定値は encoding='utf-8')。"}
	q := "to_csv() で文字コードを指定するにはどうすればいいですか？"
	r := Extractive(q, []Source{tutorial, ref}, 3)
	if !strings.Contains(r.Answer, "encoding 引数") {
		t.Errorf("answer %q: the Japanese reference sentence was left out as foreign", r.Answer)
	}
}

// TestR50EnglishSupportUnderEnglishMainPassage: a Japanese user asks about
// psycopg2, whose documentation exists in English only. The main passage
// is English (retrieval found nothing else), and the English FAQ sentence
// that says how (LISTEN in autocommit mode, conn.poll() in a select()
// loop, conn.notifies) was dropped as "in another language than the
// question" although it is in the language of the answer it supports; the
// same question asked in English quotes it. No translation repeats
// anything here: the rule only removed the how.
func TestR50EnglishSupportUnderEnglishMainPassage(t *testing.T) {
	t.Parallel()
	adv := Source{N: 1, Title: "psycopg2: More advanced topics", HeadingPath: "More advanced topics > Asynchronous notifications",
		Content: "Asynchronous notifications\n\nPsycopg allows asynchronous interaction with other database sessions using the facilities offered by PostgreSQL commands LISTEN and NOTIFY. " +
			"Notifications are received after every query execution. If the user is interested in receiving notifications but not in performing any query, the poll() method can be used to check for new messages without wasting resources.",
		Titles: []string{"Asynchronous notifications"}}
	faq := Source{N: 2, Title: "psycopg2: Frequently Asked Questions", HeadingPath: "Frequently Asked Questions > Problems with the connection",
		Content: "A program that waits for NOTIFY from PostgreSQL must execute LISTEN in autocommit mode and call conn.poll() in a select() loop; each notification received is appended to conn.notifies."}
	q := "PostgreSQL の NOTIFY の通知をプログラムで受け取るにはどうすればいいですか？"
	r := Extractive(q, []Source{adv, faq}, 3)
	if !strings.Contains(r.Answer, "Psycopg allows") {
		t.Fatalf("answer %q: want the English main passage", r.Answer)
	}
	if !strings.Contains(r.Answer, "conn.poll() in a select() loop") {
		t.Errorf("answer %q: the English supporting sentence was dropped under an English main passage", r.Answer)
	}
}

// TestR50MeansOfAnotherTask: a documentation section often holds several
// tasks, one paragraph each ("… colors and formatting are not applied." /
// "To print the request as well as the response, use --verbose."). Asked
// how to keep colors when piping, the answer quoted the section's
// statement and then the next paragraph's instruction, which is about
// another task and names an unrelated option: it reads as the answer's
// remedy. The same paragraph written as a statement ("The --verbose option
// prints …") was not added, so the means rule alone added it; a means
// sentence that holds none of the question's terms (or lies in another
// paragraph) is not the means the question asks for.
func TestR50MeansOfAnotherTask(t *testing.T) {
	t.Parallel()
	content := "Redirected output\n\n" +
		"HTTPie uses a different set of defaults for redirected output than for terminal output. " +
		"When the output is piped to another program or redirected to a file, colors and formatting are not applied.\n\n" +
		"To print the request as well as the response, use --verbose. " +
		"The request headers are then printed before the response. With -v given twice, the request and response metadata are printed too." +
		"\n\nTerminal output\n\nOn a terminal the response headers and body are both printed."
	src := Source{N: 1, Title: "HTTPie documentation", HeadingPath: "HTTPie documentation > Output", Content: content,
		Titles: []string{"Redirected output", "Terminal output"}}
	r := Extractive("How do I keep colors when piping HTTPie output to less?", []Source{src}, 3)
	if !strings.Contains(r.Answer, "colors and formatting are not applied") {
		t.Fatalf("answer %q: want the statement on redirected output", r.Answer)
	}
	if strings.Contains(r.Answer, "--verbose") {
		t.Errorf("answer %q: ran on to the instruction of another task", r.Answer)
	}
}

// r50flask is a Flask quickstart-style REST example (22 lines): three
// views, each under its route decorator.
const r50flask = `from flask import Flask, jsonify, request

app = Flask(__name__)
items = []

@app.route("/items", methods=["GET"])
def list_items():
    return jsonify(items)

@app.route("/items", methods=["POST"])
def create_item():
    item = request.get_json()
    items.append(item)
    return jsonify(item), 201

@app.route("/items/<int:item_id>", methods=["DELETE"])
def delete_item(item_id):
    del items[item_id]
    return "", 204

if __name__ == "__main__":
    app.run(debug=True)`

// TestR50CutLeavesNoDanglingDecorator: codeCut takes the last place in
// lines 7–12 where the next line is at the outermost indentation; right
// before "def create_item():" is such a place, so the Flask example was
// cut after its 10th line, the decorator "@app.route(… POST …)", alone:
// a decorator decorates nothing, and the two lines the old cut at 12
// showed, the view and its request.get_json(), the very call the question
// asks for, were lost. The blank line before the decorator is the place
// between statements. A comment above a function ("# Create an item from
// the JSON body") dangles the same way.
func TestR50CutLeavesNoDanglingDecorator(t *testing.T) {
	t.Parallel()
	head := "A minimal REST API\n\nThe application below keeps its items in a list; the POST view reads the JSON body of the request with request.get_json():\n\n"
	content := head + r50flask + "\n\nRun it with python app.py and send requests with curl."
	src := Source{N: 1, Title: "Flask tutorial", HeadingPath: "Flask tutorial > A minimal REST API", Content: content,
		Titles: []string{"A minimal REST API"}, Code: []Span{{len(head), len(head) + len(r50flask)}}}
	r := Extractive("How do I read the JSON body of a POST request in Flask?", []Source{src}, 3)
	if i := strings.Index(r.Answer, "\n…"); i >= 0 {
		last := r.Answer[strings.LastIndex(r.Answer[:i], "\n")+1 : i]
		if strings.HasPrefix(strings.TrimSpace(last), "@") {
			t.Errorf("answer %q: the quoted example ends on a decorator without its function", r.Answer)
		}
	}
	commented := strings.Replace(r50flask, "@app.route(\"/items\", methods=[\"POST\"])\n", "# Create an item from the JSON body\n", 1)
	lines := strings.Split(commented, "\n")
	if k := codeCut(lines); strings.HasPrefix(strings.TrimSpace(lines[k-1]), "#") {
		t.Errorf("codeCut ends the quote on the comment %q, above code it leaves out", lines[k-1])
	}
}

// r50argparse is argparse's tutorial program written, as most scripts
// are, inside main() (23 lines).
const r50argparse = `import argparse

def main():
    parser = argparse.ArgumentParser(description="Process some integers.")
    parser.add_argument("integers", metavar="N", type=int, nargs="+",
                        help="an integer for the accumulator")
    parser.add_argument("--sum", dest="accumulate", action="store_const",
                        const=sum, default=max,
                        help="sum the integers (default: find the max)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    if args.verbose:
        print("integers:", args.integers)
    result = args.accumulate(args.integers)
    if args.verbose:
        print("result:", result)
    else:
        print(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())`

// TestR50CutInsideMainEndsOnNoColon: a program whose body is inside
// main() (or "async def main():", a class, a docker-compose service) has
// no line at the outermost indentation among lines 7–12, so codeCut falls
// back to line 12, here "if args.verbose:", and the answer ends on a line
// that opens a block, then "…": the failure the rule was written to end
// (psycopg2's example ending on "while True:"). The fallback should still
// avoid a line that opens or continues something (after
// "args = parser.parse_args()").
func TestR50CutInsideMainEndsOnNoColon(t *testing.T) {
	t.Parallel()
	head := "Example\n\nThe following program takes a list of integers and prints their maximum, or their sum with --sum; --verbose prints what it does:\n\n"
	content := head + r50argparse + "\n\nRun it with python prog.py 1 2 3 --sum."
	src := Source{N: 1, Title: "argparse tutorial", HeadingPath: "argparse > Example", Content: content,
		Titles: []string{"Example"}, Code: []Span{{len(head), len(head) + len(r50argparse)}}}
	r := Extractive("How do I add a --verbose flag to my script with argparse?", []Source{src}, 3)
	if strings.Contains(r.Answer, ":\n…") {
		t.Errorf("answer %q: the quoted program ends on a line opening a block", r.Answer)
	}
	lines := strings.Split(r50argparse, "\n")
	if k := codeCut(lines); strings.HasSuffix(lines[k-1], ":") || strings.HasSuffix(lines[k-1], ",") {
		t.Errorf("codeCut(argparse example) = %d, ending on %q", k, lines[k-1])
	}
}
