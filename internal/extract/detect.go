package extract

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// ErrTypeMismatch is returned (wrapped, naming both types) by Detect when
// the declared type is a binary document format (PDF, DOCX) and the bytes
// are something else.
var ErrTypeMismatch = errors.New("extract: content does not match its declared type")

// sniffLen is how much of the content magic-number sniffing reads (the
// WHATWG MIME sniffing window, which net/http.DetectContentType implements).
const sniffLen = 512

// Detect decides the type content is read as, from its bytes, the declared
// content type (a MIME type with optional parameters or a short name as
// CanonicalType takes; "" or application/octet-stream when unknown) and the
// document's source_uri (whose extension, ignoring a URL's query and
// fragment, names a text flavour). It returns TypeMarkdown, TypeHTML,
// TypePlain, TypePDF or TypeDOCX.
//
// The bytes decide what they can prove: a magic number (PDF, ZIP with a
// word/document.xml entry for DOCX, images, archives, …) or binary bytes
// (NUL, control characters beyond sanitize's allowance) make the content
// binary whatever its name says; binary content is never read as text.
// A BOM (UTF-8, UTF-16, UTF-32) or a declared UTF-16 charset is honoured
// before the binary check, since UTF-16 and UTF-32 text is full of NUL
// bytes.
//
//   - Declared text type (Markdown, HTML, plain): that type, unless the
//     bytes are binary → ErrBinary (wrapped, naming what they are).
//   - Declared PDF or DOCX: that type when the bytes agree, else
//     ErrTypeMismatch.
//   - Nothing or application/octet-stream declared: PDF and DOCX by their
//     bytes; other binary formats → ErrUnsupportedType naming the sniffed
//     type; text → the source_uri's extension (.md, .markdown, .html,
//     .htm, .txt, .text), else TypeHTML when the bytes start like HTML
//     (WHATWG sniffing: "<!DOCTYPE html", "<html", "<p", …), else
//     TypePlain.
//   - Any other declared type → ErrUnsupportedType.
//
// Detect does not check UTF-8 validity or transcode: ToUTF8 does that.
// It reads the whole content once (the binary check) and never panics.
func Detect(content []byte, declared, sourceURI string) (string, error) {
	mt, params, _ := mime.ParseMediaType(strings.ToLower(strings.TrimSpace(declared)))
	if mt == "" {
		mt = strings.ToLower(strings.TrimSpace(declared))
	}
	probe := content
	if cs := params["charset"]; cs != "" && !hasBOM(content) {
		if enc, name := charset.Lookup(cs); enc != nil && strings.HasPrefix(name, "utf-16") {
			if dec, err := enc.NewDecoder().Bytes(content); err == nil {
				probe = dec
			}
		}
	}
	sniffed := sniffBinary(probe)
	switch mt {
	case "", "application/octet-stream":
		switch sniffed {
		case TypePDF, TypeDOCX:
			return sniffed, nil
		case "":
		default:
			what := sniffed
			if what == "application/octet-stream" {
				what = "binary (" + what + ")"
			}
			return "", fmt.Errorf("%w: the content is %s (supported: markdown, html, plain text, PDF, DOCX)", ErrUnsupportedType, what)
		}
		// Text bytes: the name's extension decides among the text types
		// only (text named x.pdf is not a PDF).
		if t, err := TypeFromPath(uriPath(sourceURI)); err == nil && IsText(t) {
			return t, nil
		}
		if looksHTML(probe) {
			return TypeHTML, nil
		}
		return TypePlain, nil
	case TypePDF, TypeDOCX:
		if sniffed != mt {
			what := sniffed
			switch {
			case what == "":
				what = "text"
			case what == "application/zip" && mt == TypeDOCX:
				what = zipProblem(content)
			}
			return "", fmt.Errorf("%w: declared %s, but the content is %s", ErrTypeMismatch, mt, what)
		}
		return mt, nil
	}
	t, err := CanonicalType(declared)
	if err != nil {
		return "", err
	}
	if sniffed != "" {
		return "", fmt.Errorf("%w: declared %s, but the content is %s", ErrBinary, t, sniffed)
	}
	return t, nil
}

// IsText reports whether typ (a type Detect returns) is read as text, so
// its bytes go through ToUTF8 before Extract.
func IsText(typ string) bool {
	return typ == TypeMarkdown || typ == TypeHTML || typ == TypePlain
}

// ToUTF8 returns text content of type typ (as Detect returned it) as UTF-8.
// The encoding is, in this order: a byte-order mark (UTF-8, UTF-32LE,
// UTF-32BE, UTF-16LE, UTF-16BE; it is removed); the charset parameter of declared (any WHATWG
// label, e.g. "iso-8859-1", "windows-1252", "shift_jis", "utf-16le");
// for HTML that is not valid UTF-8, the <meta charset> or <meta
// http-equiv="Content-Type"> in its first 1024 bytes. Otherwise content is
// returned as it is and Extract checks that it is UTF-8 (ErrInvalidUTF8):
// ragd does not guess a charset.
//
// A meta charset yields to valid UTF-8 because pages re-encoded to UTF-8
// that still declare their old charset are common, while legacy-encoded
// text with non-ASCII bytes is almost never valid UTF-8 by accident.
//
// Content of a non-text type is returned unchanged. Errors:
// ErrUnsupportedType (wrapped) for a charset label nobody defines.
func ToUTF8(content []byte, typ, declared string) ([]byte, error) {
	if !IsText(typ) {
		return content, nil
	}
	switch {
	case bytes.HasPrefix(content, []byte{0xEF, 0xBB, 0xBF}):
		return content[3:], nil
	case bytes.HasPrefix(content, bomUTF32LE), bytes.HasPrefix(content, bomUTF32BE):
		// Before UTF-16: UTF-32LE's mark begins with UTF-16LE's.
		bigEndian := bytes.HasPrefix(content, bomUTF32BE)
		if !validUTF32(content[4:], bigEndian) {
			return nil, errInvalidUTF32
		}
		order := utf32.LittleEndian
		if bigEndian {
			order = utf32.BigEndian
		}
		return decode(utf32.UTF32(order, utf32.ExpectBOM), content)
	case bytes.HasPrefix(content, []byte{0xFF, 0xFE}):
		if !validUTF16(content[2:], false) {
			return nil, errInvalidUTF16
		}
		return decode(unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), content)
	case bytes.HasPrefix(content, []byte{0xFE, 0xFF}):
		if !validUTF16(content[2:], true) {
			return nil, errInvalidUTF16
		}
		return decode(unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), content)
	}
	if _, params, err := mime.ParseMediaType(declared); err == nil && params["charset"] != "" {
		enc, name := charset.Lookup(params["charset"])
		if enc == nil {
			return nil, fmt.Errorf("%w: charset %q", ErrUnsupportedType, params["charset"])
		}
		if name == "utf-8" {
			return content, nil
		}
		if (name == "utf-16le" || name == "utf-16be") && !validUTF16(content, name == "utf-16be") {
			return nil, errInvalidUTF16
		}
		return decode(enc, content)
	}
	if typ == TypeHTML && !utf8.Valid(content) {
		if label := metaCharset(content); label != "" {
			if enc, name := charset.Lookup(label); enc != nil && name != "utf-8" && !strings.HasPrefix(name, "utf-16") {
				return decode(enc, content)
			}
		}
	}
	return content, nil
}

// errInvalidUTF16 refuses UTF-16 text with an odd number of bytes or an
// unpaired surrogate: the decoder would put U+FFFD in their place and store
// a text nobody sent, which invalid UTF-8 is refused for too.
var errInvalidUTF16 = fmt.Errorf("%w (the text is UTF-16 by its byte-order mark or declared charset but is not valid UTF-16: an odd number of bytes or an unpaired surrogate)", ErrInvalidUTF8)

// errInvalidUTF32 refuses UTF-32 text that is not whole code points, or
// names one beyond U+10FFFF or a surrogate, for errInvalidUTF16's reason.
var errInvalidUTF32 = fmt.Errorf("%w (the text is UTF-32 by its byte-order mark but is not valid UTF-32: a length not a multiple of four bytes, or a value that is no Unicode scalar)", ErrInvalidUTF8)

// Byte-order marks of UTF-32 text.
var (
	bomUTF32LE = []byte{0xFF, 0xFE, 0x00, 0x00}
	bomUTF32BE = []byte{0x00, 0x00, 0xFE, 0xFF}
)

// validUTF32 reports whether b (after its byte-order mark) is whole UTF-32
// code units, each a Unicode scalar value.
func validUTF32(b []byte, bigEndian bool) bool {
	if len(b)%4 != 0 {
		return false
	}
	for i := 0; i < len(b); i += 4 {
		var r uint32
		if bigEndian {
			r = uint32(b[i])<<24 | uint32(b[i+1])<<16 | uint32(b[i+2])<<8 | uint32(b[i+3])
		} else {
			r = uint32(b[i+3])<<24 | uint32(b[i+2])<<16 | uint32(b[i+1])<<8 | uint32(b[i])
		}
		if r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF) {
			return false
		}
	}
	return true
}

// validUTF16 reports whether b (after its byte-order mark) is whole UTF-16
// code units with every surrogate paired.
func validUTF16(b []byte, bigEndian bool) bool {
	if len(b)%2 != 0 {
		return false
	}
	unit := func(i int) uint16 {
		if bigEndian {
			return uint16(b[i])<<8 | uint16(b[i+1])
		}
		return uint16(b[i+1])<<8 | uint16(b[i])
	}
	for i := 0; i < len(b); i += 2 {
		u := unit(i)
		switch {
		case u >= 0xD800 && u < 0xDC00:
			if i+2 >= len(b) {
				return false
			}
			if next := unit(i + 2); next < 0xDC00 || next > 0xDFFF {
				return false
			}
			i += 2
		case u >= 0xDC00 && u <= 0xDFFF:
			return false
		}
	}
	return true
}

func decode(enc encoding.Encoding, b []byte) ([]byte, error) {
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidUTF8, err)
	}
	return out, nil
}

func hasBOM(b []byte) bool {
	return bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) || bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}) ||
		bytes.HasPrefix(b, bomUTF32BE)
}

// sniffBinary returns the MIME type of binary content — recognised by its
// magic number, or "application/octet-stream" when it has a NUL byte or
// too many control characters (sanitize's rule) — and "" for text.
// UTF-16 and UTF-32 with a byte-order mark are text.
func sniffBinary(b []byte) string {
	if hasBOM(b) {
		return ""
	}
	t := http.DetectContentType(b[:min(len(b), sniffLen)])
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	switch {
	case t == TypePDF:
		return TypePDF
	case t == "application/zip":
		return zipType(b)
	case strings.HasPrefix(t, "text/"), t == "application/octet-stream":
		// No signature: text unless its bytes say otherwise. (Sniffing
		// calls a single control byte binary; sanitize tolerates a few.)
		if looksBinary(b) {
			return "application/octet-stream"
		}
		return ""
	default:
		// A signature of printable bytes ("BM" of BMP, "GIF8", "RIFF",
		// "OggS") also opens text: three SciFact abstracts beginning
		// "BMI …" were refused as images. A real file of those types has
		// NUL bytes or bytes that are not UTF-8 right after it.
		if t != "application/postscript" && utf8.Valid(b) && !looksBinary(b) {
			return "" // (PostScript is text all through: its signature decides)
		}
		return t // image/png, application/x-gzip, font/woff, …
	}
}

// looksBinary applies sanitize's rule: a NUL byte, or C0 control characters
// (other than tab, newline, CR, VT, FF) and DEL making up more than 1% of
// the content and more than four.
func looksBinary(b []byte) bool {
	controls := 0
	for _, c := range b {
		switch {
		case c == 0:
			return true
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f', c == 0x7f:
			controls++
		}
	}
	return controls > 4 && controls*100 > len(b)
}

// zipType names an Office Open XML package by its main part, else
// "application/zip".
func zipType(b []byte) string {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return "application/zip"
	}
	for _, f := range zr.File {
		switch f.Name {
		case "word/document.xml":
			return TypeDOCX
		case "xl/workbook.xml":
			return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
		case "ppt/presentation.xml":
			return "application/vnd.openxmlformats-officedocument.presentationml.presentation"
		}
	}
	return "application/zip"
}

// zipProblem says why ZIP bytes declared as DOCX are not one: a damaged
// archive, or one without a Word document's main part.
func zipProblem(b []byte) string {
	if _, err := zip.NewReader(bytes.NewReader(b), int64(len(b))); err != nil {
		return "a damaged or truncated ZIP archive (" + err.Error() + ")"
	}
	return "a ZIP archive without word/document.xml, so no Word document"
}

// looksHTML applies WHATWG sniffing (net/http.DetectContentType) to the
// start of text content, after a UTF-8 BOM.
func looksHTML(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
	return strings.HasPrefix(http.DetectContentType(b[:min(len(b), sniffLen)]), "text/html")
}

// uriPath is the path part of a source_uri (a URL's query and fragment
// removed), whose extension names the type.
func uriPath(uri string) string {
	if i := strings.IndexAny(uri, "?#"); i >= 0 {
		uri = uri[:i]
	}
	return path.Base(strings.ReplaceAll(uri, `\`, "/"))
}

// metaCharset returns the charset label an HTML document declares in a
// <meta> element within its first 1024 bytes (the HTML prescan window), or "".
func metaCharset(b []byte) string {
	z := html.NewTokenizer(bytes.NewReader(b[:min(len(b), 1024)]))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "meta" || !hasAttr {
				continue
			}
			var httpEquiv, content string
			for {
				k, v, more := z.TagAttr()
				switch string(k) {
				case "charset":
					return strings.TrimSpace(string(v))
				case "http-equiv":
					httpEquiv = strings.ToLower(string(v))
				case "content":
					content = string(v)
				}
				if !more {
					break
				}
			}
			if httpEquiv == "content-type" {
				if _, p, err := mime.ParseMediaType(content); err == nil && p["charset"] != "" {
					return p["charset"]
				}
			}
		}
	}
}
