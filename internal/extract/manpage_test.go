package extract

import (
	"strings"
	"testing"
)

// TestHTMLManPageIsReadBack: a manual page formatted for a terminal inside
// <pre> (man2html) comes out as sections, option terms with their
// descriptions as paragraphs (hyphenation at line ends undone, filling
// blanks collapsed), tags beside their descriptions, bullets and numbered
// items as list items, the synopsis and examples as code; the running
// header and footer are left out. A <pre> that is no manual page stays
// code.
func TestHTMLManPageIsReadBack(t *testing.T) {
	t.Parallel()
	in := `<html><head><title>Postfix manual - frobsuper(1)</title></head><body><pre>
FROBSUPER(1)                                                      FROBSUPER(1)

<b>NAME</b>
       frobsuper - Frob superintendent

<b>SYNOPSIS</b>
       <b>frobsuper</b> [<b>-ps</b>]
               [<b>-d</b> <i>queue_id</i>] [<i>directory ...</i>]

<b>DESCRIPTION</b>
       The  <a href="frobsuper.1.html"><b>frobsuper</b>(1)</a>  command  does maintenance jobs on the Frob queue,
       including  the incoming, active and deferred directories with mes-
       sage files.

       -d queue_id
              Delete one message with the named queue ID from the  named  mail
              queue(s) (default: hold and deferred).

              For example, to delete everything:

              frobqueue -j | jq -r '
                  .queue_id
               ' | frobsuper -d -

              Specify "-d  ALL" to remove all messages.

       -p     Purge old temporary files that are left  over  after  system  or
              software crashes.

              o      The first bullet says what is purged.

              1)     The first step of the scenario.

<b>QUEUES</b>
       hold   Messages that are kept "on hold" are  kept  here  until  someone
              sets them free.

                                                                  FROBSUPER(1)
</pre>
<pre>
NAME
       not a manual page: a configuration example
</pre></body></html>`
	doc := mustExtract(t, "html", in)
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, b.Kind.String()+": "+doc.Text[b.Start:b.End])
	}
	want := []string{
		"heading: NAME",
		"paragraph: frobsuper - Frob superintendent",
		"heading: SYNOPSIS",
		"code: frobsuper [-ps]\n        [-d queue_id] [directory ...]",
		"heading: DESCRIPTION",
		"paragraph: The frobsuper(1) command does maintenance jobs on the Frob queue, including the incoming, active and deferred directories with message files.",
		"term: -d queue_id",
		"paragraph: Delete one message with the named queue ID from the named mail queue(s) (default: hold and deferred).",
		"paragraph: For example, to delete everything:",
		"code: frobqueue -j | jq -r '\n    .queue_id\n ' | frobsuper -d -",
		`paragraph: Specify "-d ALL" to remove all messages.`,
		"term: -p",
		"paragraph: Purge old temporary files that are left over after system or software crashes.",
		"list-item: - The first bullet says what is purged.",
		"list-item: 1. The first step of the scenario.",
		"heading: QUEUES",
		"term: hold",
		`paragraph: Messages that are kept "on hold" are kept here until someone sets them free.`,
		"code: NAME\n       not a manual page: a configuration example",
	}
	if strings.Join(got, "\n---\n") != strings.Join(want, "\n---\n") {
		t.Errorf("blocks:\n%s\n\nwant:\n%s", strings.Join(got, "\n---\n"), strings.Join(want, "\n---\n"))
	}
}

// TestPlainManPageIsReadBack: a manual page saved as text is read the same
// way; other text keeps its paragraphs.
func TestPlainManPageIsReadBack(t *testing.T) {
	t.Parallel()
	in := "FROB(8)                                                              FROB(8)\n\n" +
		"NAME\n       frob - frobnicate the queue\n\n" +
		"DESCRIPTION\n       The  frob  daemon frobnicates every queue file it finds, one at a\n       time, in the order they arrived.\n\n" +
		"       -q     Quiet mode: nothing is printed unless something goes  wrong\n              with a queue file.\n\n" +
		"                                                                     FROB(8)\n"
	doc := mustExtract(t, "text", in)
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, b.Kind.String()+": "+doc.Text[b.Start:b.End])
	}
	want := []string{"heading: NAME", "paragraph: frob - frobnicate the queue", "heading: DESCRIPTION",
		"paragraph: The frob daemon frobnicates every queue file it finds, one at a time, in the order they arrived.",
		"term: -q", "paragraph: Quiet mode: nothing is printed unless something goes wrong with a queue file."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if doc := mustExtract(t, "text", "Notes\n\n  indented line\nnext"); len(doc.Blocks) != 2 {
		t.Errorf("ordinary text: %d blocks", len(doc.Blocks))
	}
}

// TestPlainManPageUnicodeHyphensAndFooter: man writes a word hyphenated at
// a line's end with the hyphen U+2010 in UTF-8 ("directo‐" above "ries"),
// and GNU's footer from the left margin ("GNU coreutils 9.1  September
// 2022  DU(1)"): the word is joined again and the footer left out.
func TestPlainManPageUnicodeHyphensAndFooter(t *testing.T) {
	t.Parallel()
	in := "DU(1)                            User Commands                           DU(1)\n\n" +
		"NAME\n       du - estimate file space usage\n\n" +
		"DESCRIPTION\n       Summarize  device  usage of the set of FILEs, recursively for directo\u2010\n" +
		"       ries.  Sizes are the space files take on the disk, not their length\n" +
		"       in bytes, so a sparse file may use less than its apparent size.\n\n" +
		"       -x, --one-file-system\n              skip directories on different file systems\n\n" +
		"GNU coreutils 9.1               September 2022                           DU(1)\n"
	doc := mustExtract(t, "text", in)
	if !strings.Contains(doc.Text, "recursively for directories.") || strings.Contains(doc.Text, "\u2010") {
		t.Errorf("line-end hyphen not undone:\n%s", doc.Text)
	}
	if strings.Contains(doc.Text, "September 2022") {
		t.Errorf("footer kept:\n%s", doc.Text)
	}
	if !strings.Contains(doc.Text, "skip directories on different file systems") {
		t.Errorf("option lost:\n%s", doc.Text)
	}
}

// TestPlainManPageOptionFormsStayOneTerm: systemd's pages set an option's
// short and long forms on one line reaching past the description's column
// ("-u, --unit=UNIT|PATTERN" above its description): the line is the term,
// not "-u," with the long form run into the description.
func TestPlainManPageOptionFormsStayOneTerm(t *testing.T) {
	t.Parallel()
	in := "JOURNALCTL(1)                     journalctl                     JOURNALCTL(1)\n\n" +
		"NAME\n       journalctl - Print log entries from the systemd journal\n\n" +
		"DESCRIPTION\n       journalctl may be used to query the contents of the systemd journal.\n\n" +
		"OPTIONS\n       The following options are understood:\n\n" +
		"       -u, --unit=UNIT|PATTERN\n           Show messages for the specified systemd unit UNIT (such as a\n" +
		"           service unit), or for any of the units matched by PATTERN.\n\n" +
		"       hold   Messages that are kept in the hold queue until someone\n              releases them.\n"
	doc := mustExtract(t, "text", in)
	var terms []string
	for _, b := range doc.Blocks {
		if b.Kind == KindTerm {
			terms = append(terms, doc.Text[b.Start:b.End])
		}
	}
	if len(terms) != 2 || terms[0] != "-u, --unit=UNIT|PATTERN" || terms[1] != "hold" {
		t.Errorf("terms %q, want the option line whole and the short tag beside its description\n%s", terms, doc.Text)
	}
}
