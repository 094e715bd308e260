package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestGzippedUploadWithSourceURIKeepsItsFileType: an upload's type is "the
// file's extension" when the part declares nothing specific (README,
// "Formats"), and install.md uploaded with source_uri
// https://docs.acme.test/install is Markdown. The same file gzipped
// (install.md.gz, as Debian ships it) is decompressed, but its type is
// then judged by the source_uri alone: the file name, whose ".md" the
// commit says decides ("its name without .gz and its bytes say what it
// is"), is lost, and the Markdown is stored as plain text (its headings
// read as prose, its title the first line with its "#").
func TestGzippedUploadWithSourceURIKeepsItsFileType(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	upload := func(filename, partType, uri string, content []byte) api.Document {
		t.Helper()
		body, ct := multipartBody(t, filename, partType, content, map[string]string{"source_uri": uri})
		out := decode[api.DocumentWrite](t, b.do(req{method: "POST", path: "/v1/documents/upload", token: ed, body: body.Bytes(), header: map[string]string{"Content-Type": ct}}), 200)
		return decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: ed}), 200)
	}
	plain := upload("install.md", "", "https://docs.acme.test/install", []byte(docInstall))
	if plain.ContentType != "text/markdown" {
		t.Fatalf("baseline: install.md uploaded with an extensionless source_uri read as %q", plain.ContentType)
	}
	gz := upload("install.md.gz", "application/gzip", "https://docs.acme.test/install-gz", gzipBytes(t, docInstall))
	if gz.ContentType != "text/markdown" || gz.Title != "Installing Widgets" {
		t.Errorf("install.md.gz uploaded with source_uri %s: content_type %q, title %q; want text/markdown and \"Installing Widgets\", as install.md", gz.SourceURI, gz.ContentType, gz.Title)
	}
}

// TestGzippedUploadContentSHA256: Document.content_sha256 was documented as
// "Hex SHA-256 of the content as uploaded", and for a gzipped upload the
// stored hash is that of the decompressed bytes. The hash is of the
// content as read (the same file sent plain or gzipped is one document,
// unchanged either way, as `ragd ingest` reads a .gz from disk), and the
// field's description now says so: the hash a client compares with is
// the file's own, before gzip.
func TestGzippedUploadContentSHA256(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	sent := gzipBytes(t, docInstall)
	body, ct := multipartBody(t, "install.md.gz", "application/gzip", sent, nil)
	out := decode[api.DocumentWrite](t, b.do(req{method: "POST", path: "/v1/documents/upload", token: ed, body: body.Bytes(), header: map[string]string{"Content-Type": ct}}), 200)
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: ed}), 200)
	sum := sha256.Sum256([]byte(docInstall))
	if want := hex.EncodeToString(sum[:]); doc.ContentSHA256 != want {
		t.Errorf("content_sha256 %s; documented as the SHA-256 of the content as read (the file before gzip), %s", doc.ContentSHA256, want)
	}
	// Sent again plain, the same file is unchanged.
	body, ct = multipartBody(t, "install.md.gz", "", []byte(docInstall), nil)
	again := decode[api.DocumentWrite](t, b.do(req{method: "POST", path: "/v1/documents/upload", token: ed, body: body.Bytes(), header: map[string]string{"Content-Type": ct}}), 200)
	if again.Status != "unchanged" {
		t.Errorf("the same file sent plain: status %q, want unchanged", again.Status)
	}
}
