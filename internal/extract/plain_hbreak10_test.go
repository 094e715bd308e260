package extract

import (
	"slices"
	"strings"
	"testing"
)

// headingOf returns the text of the last heading before the first block
// holding s, or "" when there is none.
func headingOf(doc *Document, s string) string {
	head := ""
	for _, b := range doc.Blocks {
		txt := doc.Text[b.Start:b.End]
		if b.Kind == KindHeading {
			head = txt
			continue
		}
		if strings.Contains(txt, s) {
			return head
		}
	}
	return "(not found)"
}

// TestPlainRFCSectionsWithoutSubsectionsHBreak10 (h-break10): a one-part
// section number ("3.  Security Considerations") is a heading only when a
// deeper numbered heading starts with the same number. An RFC's sections
// without subsections (Security Considerations, IANA Considerations, most
// sections of a short RFC) were never headings, so their text was filed
// under the previous subsection: "deploy it over TLS" had the heading path
// "1. Introduction > 1.1. Requirements Language". Once the document has
// accepted numbered headings of one part (1. and 5. here), their
// ascending siblings at the margin are headings too; the same goes for
// the steps of an installation guide whose step 2 has numbered sub-steps:
// "2. Configure the build" became a heading, "3. Run make" did not, and
// "make install" landed under "2.2 On BSD".
func TestPlainRFCSectionsWithoutSubsectionsHBreak10(t *testing.T) {
	t.Parallel()
	rfc := `Request for Comments: 9999                                   Example Inc.
Category: Standards Track                                    June 2024

Table of Contents

   1.  Introduction  . . . . . . . . . . . . . . . . . . . . . . . .   2
     1.1.  Requirements Language . . . . . . . . . . . . . . . . . .   2
   2.  Protocol Overview . . . . . . . . . . . . . . . . . . . . . .   3
   3.  Security Considerations . . . . . . . . . . . . . . . . . . .   4
   4.  IANA Considerations . . . . . . . . . . . . . . . . . . . . .   4
   5.  References  . . . . . . . . . . . . . . . . . . . . . . . . .   4

1.  Introduction

   The Example Protocol moves examples between hosts.

1.1.  Requirements Language

   The key words "MUST" and "MUST NOT" are to be interpreted as
   described in BCP 14.

2.  Protocol Overview

   A client opens a connection and sends a greeting.

3.  Security Considerations

   The protocol has no confidentiality; deploy it over TLS.

4.  IANA Considerations

   This document has no IANA actions.

5.  References

5.1.  Normative References

   [RFC2119]  Bradner, S., "Key words for use in RFCs to Indicate
              Requirement Levels", BCP 14, RFC 2119, March 1997.
`
	doc, hs := plainHeads(t, rfc)
	for _, want := range []string{"2. Protocol Overview", "3. Security Considerations", "4. IANA Considerations"} {
		if !slices.Contains(hs, "1 "+want) {
			t.Errorf("no heading %q; headings %q", want, hs)
		}
	}
	if h := headingOf(doc, "deploy it over TLS"); h != "3. Security Considerations" {
		t.Errorf("\"deploy it over TLS\" is under %q", h)
	}

	guide := `Installing

1. Download the archive

   wget https://example.com/foo.tar.gz

2. Configure the build

2.1 On Linux

   ./configure --prefix=/usr

2.2 On BSD

   ./configure --prefix=/usr/local

3. Run make

   make && make install
`
	doc, hs = plainHeads(t, guide)
	if slices.Contains(hs, "1 2. Configure the build") && headingOf(doc, "make install") == "2.2 On BSD" {
		t.Errorf("step 2 is a heading, step 3 is not, and \"make install\" is under \"2.2 On BSD\"; headings %q", hs)
	}
}

// TestPlainUnderlinedLowerCaseTitleHBreak10 (h-break10): an underlined
// one-line paragraph is a heading only when titleLike, which refuses a
// line starting with a lower-case letter; but release notes title their
// releases with the project's lower-case name, underlined. dbus's NEWS
// (/usr/share/doc/dbus-daemon/NEWS.gz) has "dbus 1.14.10 (2023-09-01)" over
// "=========================" for every release: none was a heading, so
// every release's notes were filed under the last capitalised title above
// them ("Summary of major changes between 1.12.x and 1.14.0" heads the
// notes of 1.14.10 … 1.14.0 of the file's top only by luck of order). An
// underline is the author's own mark of a title.
func TestPlainUnderlinedLowerCaseTitleHBreak10(t *testing.T) {
	t.Parallel()
	src := `dbus 1.14.10 (2023-09-01)
=========================

Bug fixes:

• Avoid a dbus-daemon crash if re-creating a connection's policy fails.

dbus 1.14.8 (2023-06-06)
========================

Denial-of-service fixes:

• Fix an assertion failure in dbus-daemon when a privileged Monitoring
  connection is active.

systemd 252
-----------

Changes in the unit files.
`
	doc, hs := plainHeads(t, src)
	for _, want := range []string{"dbus 1.14.10 (2023-09-01)", "dbus 1.14.8 (2023-06-06)", "systemd 252"} {
		if !slices.ContainsFunc(hs, func(h string) bool { return strings.HasSuffix(h, " "+want) }) {
			t.Errorf("no heading %q; headings %q", want, hs)
		}
	}
	if h := headingOf(doc, "assertion failure"); h != "dbus 1.14.8 (2023-06-06)" {
		t.Errorf("the 1.14.8 fix is under %q", h)
	}
}

// TestPlainShortUnderlinedTitleHBreak10 (h-break10): separatorLine wants
// four characters, so reStructuredText's and Markdown's valid "API\n===",
// "FAQ\n===" and "Use\n---" (underline as long as the title) are no
// heading, and the underline is kept as text: "API ===" opens the section.
func TestPlainShortUnderlinedTitleHBreak10(t *testing.T) {
	t.Parallel()
	doc, hs := plainHeads(t, "Intro\n=====\n\nSome words.\n\nAPI\n===\n\nThe API has two calls.\n\nFAQ\n---\n\nAsk away.\n")
	if !slices.Contains(hs, "1 API") {
		t.Errorf("no heading API; headings %q", hs)
	}
	if strings.Contains(doc.Text, "===") || strings.Contains(doc.Text, "---") {
		t.Errorf("underline kept as text: %q", doc.Text)
	}
}

// TestPlainAddressLinesAreNotHeadingsHBreak10 (h-break10): numberedLine
// takes any line opening with up to five dot-separated numbers, and a
// number of several parts may head a lower-case title, so an IP address
// line of a hosts-file example ("192.168.1.10 fileserver") and a
// changelog's sentence opening with a version ("2.1 brings a faster
// parser…") became headings, and the prose after them took them as
// heading path. (127.0.0.1 above was spared only because another
// numbered line followed it.)
func TestPlainAddressLinesAreNotHeadingsHBreak10(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"Add these lines to your hosts file:\n\n127.0.0.1 localhost\n\n192.168.1.10 fileserver\n\nThen restart the resolver and check that the names resolve.\n",
		"Release notes\n\n2.1 brings a faster parser and fixes two crashes\n\nWe thank the reporters.\n\n2.2 drops support for Python 2\n\nUsers of Python 2 should stay on 2.1.\n",
	} {
		if _, hs := plainHeads(t, src); len(hs) > 0 {
			t.Errorf("headings %q in\n%s", hs, src)
		}
	}
}

// TestPlainTableHeaderRowNotHeadingHBreak10 (h-break10): a ruled plain-text
// table (a row of column names between two rule lines, the rows under it)
// gave its header row as a heading ("Name Size Date", its column spacing
// collapsed) and cut it from its rows, which took it as heading path. A
// line whose words are set apart in columns by runs of blanks is a table
// row, not a title.
func TestPlainTableHeaderRowNotHeadingHBreak10(t *testing.T) {
	t.Parallel()
	src := "The files:\n\n" +
		"----------------------------------\n" +
		"Name          Size     Date\n" +
		"----------------------------------\n" +
		"foo.txt       12       2020-01-01\n" +
		"bar.txt       13       2020-01-02\n" +
		"----------------------------------\n"
	if _, hs := plainHeads(t, src); len(hs) > 0 {
		t.Errorf("headings %q in a table", hs)
	}
}

// TestPlainUnnumberedFAQ (h-break10): only numbered questions and
// "Q:" questions were headings. The common FAQ layout of Debian's own
// /usr/share/doc/procps/FAQ.gz (each question an unindented line ending
// with "?", its answer indented under it after a blank line) gave no
// heading at all, so a question was cut from its answer as before the
// change ("a question and its answer are one section" is the promise).
func TestPlainUnnumberedFAQ(t *testing.T) {
	t.Parallel()
	src := "Why does \"ps -aux\" complain about a bogus '-'?\n\n" +
		"\tAccording to the POSIX and UNIX standards, the above command asks to\n" +
		"\tdisplay all processes with a TTY plus all processes owned by \"x\".\n\n" +
		"Why don't I see SMP (per-CPU) stats in top?\n\n" +
		"\tYou didn't enable it. Press '?' for built-in help.\n\n" +
		"Why do long usernames get printed as numbers?\n\n" +
		"\tThe UNIX and POSIX standards require that user names be printed\n" +
		"\tas decimal integers when there is not enough room.\n"
	doc, hs := plainHeads(t, src)
	if len(hs) != 3 {
		t.Errorf("headings %q, want the three questions", hs)
	}
	if h := headingOf(doc, "decimal integers"); h != "Why do long usernames get printed as numbers?" {
		t.Errorf("the last answer is under %q", h)
	}
	// One question in a text is a sentence of it, not a heading.
	if _, hs := plainHeads(t, "Intro\n=====\n\nWhy does this matter?\n\nBecause it does.\n"); len(hs) != 1 {
		t.Errorf("headings %q, want only Intro", hs)
	}
}
