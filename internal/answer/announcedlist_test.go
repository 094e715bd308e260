package answer

import (
	"strings"
	"testing"
)

// TestNumberedItemOfSentencesIsNoTitle: a numbered item of two sentences
// ("1. Tell libcurl to not verify the peer. With libcurl you disable this
// with …;") is an item of the list a sentence announces, not a numbered
// title starting a section: read as a title, libcurl's answer to how to
// stop verifying a self-signed certificate ended on "… do one of the
// following:", before CURLOPT_SSL_VERIFYPEER.
func TestNumberedItemOfSentencesIsNoTitle(t *testing.T) {
	t.Parallel()
	content := "Certificate Verification\n\n" +
		"The library performs peer certificate verification by default. This is done by using a CA certificate store that the TLS library can use to make sure the peer's server certificate is valid.\n\n" +
		"If you talk to servers using certificates in the CA store, you can be sure that the remote server really is the one it claims to be.\n\n" +
		"If the remote server uses a self-signed certificate, if you do not install a CA cert store, if the server uses a certificate signed by a CA that is not in the store you use, or if the remote host is an impostor impersonating your favourite site, and you want to transfer files from this server anyway, do one of the following:\n\n" +
		"1. Tell the library to not verify the peer. With the library you disable this with set_option(handle, OPT_VERIFY_PEER, FALSE);\n" +
		"  With the command line tool, you disable this with -k/--insecure.\n" +
		"2. Get a CA certificate that can verify the remote server and point the library at it. For library hackers: set_option(handle, OPT_CA_INFO, cacert);\n"
	r := Extractive("How do I stop the library from verifying the certificate of a server that uses a self-signed cert?",
		[]Source{{N: 1, Title: "Certificates", HeadingPath: "Certificates > Certificate Verification", Content: content}}, 3)
	if !strings.Contains(r.Answer, "OPT_VERIFY_PEER") {
		t.Errorf("answer %q: want the list's first item, which says how", r.Answer)
	}
}

// TestNumberedTitleWithAbbreviationStaysATitle: an abbreviation inside a
// numbered title ("3.2. Threads vs. Processes") ends no sentence: the
// title still starts its section, and the answer quotes that section's
// text, not the section above it with the title glued on.
func TestNumberedTitleWithAbbreviationStaysATitle(t *testing.T) {
	t.Parallel()
	for _, title := range []string{"3.2. Threads vs. Processes", "3.2. Mr. Smith's Workers", "3.2. Workers, e.g. Forks"} {
		if !isTitleLine(title, nil) {
			t.Errorf("%q is no title", title)
		}
	}
	for _, item := range []string{"1. Tell the library to not verify the peer (see below). With it, set OPT_VERIFY_PEER to FALSE;", "1. Use the option; then set it again,"} {
		if isTitleLine(item, nil) {
			t.Errorf("%q is a title", item)
		}
	}
	content := "3.1. Pooling\nEach pooled connection costs about one megabyte of memory.\n\n3.2. Threads vs. Processes\nEach worker costs about ten megabytes of memory.\n\n3.3. Caching\nThe cache is shared."
	r := Extractive("How much memory does a worker cost?", []Source{{N: 1, Title: "Tuning", HeadingPath: "Tuning > 3. Resources", Content: content}}, 3)
	if !strings.HasPrefix(r.Answer, "Each worker costs about ten megabytes") {
		t.Errorf("answer %q, want the workers' section alone", r.Answer)
	}
}
