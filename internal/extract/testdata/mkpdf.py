#!/usr/bin/env python3
"""Writes the small PDF fixtures of package extract's tests (run from this
directory; no dependencies): manual.pdf, four pages of text in the standard
Helvetica font with a running header, page-number footers, headings set
larger than the body, and words hyphenated at line ends; scan.pdf, one page
holding only an image (no text layer); outline.pdf, three pages whose headings are in the
body font size and marked only by the outline (bookmarks), the last with a
three-line code example in Courier; pagebreak.pdf, three pages whose first
page ends inside a sentence that the second goes on with, and whose second
ends a sentence before the third opens a new one; caption.pdf, a figure's
caption ending its first page above the second page's lower-case opening,
and a paragraph running over the second page's end into the third."""
import textwrap
import zlib


def pdf(objects):
    out = b"%PDF-1.4\n"
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 2 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out


def stream(data):
    return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def esc(s):
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("latin-1")


def text(lines):
    ops = b""
    for size, y, s in lines:
        ops += b"BT /F1 %d Tf 72 %d Td (%s) Tj ET\n" % (size, y, esc(s))
    return ops


PAGES = [
    [(18, 720, "1 Getting started"),
     (11, 690, "The ragd server keeps every tenant's documents apart. Its"),
     (11, 676, "configu-"),
     (11, 662, "ration lives in environment variables read at start-up."),
     (11, 630, "A second paragraph explains the listen address and the"),
     (11, 616, "database URL.")],
    [(14, 720, "1.1 Ports and addresses"),
     (11, 690, "The server listens on port 8080 unless RAGD_ADDR says other-"),
     (11, 676, "wise. Health checks answer on the same port."),
     (11, 644, "Metrics are exported for Prometheus.")],
    [(18, 720, "2 Ingesting documents"),
     (11, 690, "Documents arrive as HTML, Markdown, plain text, PDF or DOCX. A"),
     (11, 676, "PDF keeps its page numbers, so that every citation names the"),
     (11, 662, "page it comes from.")],
    [(14, 720, "2.1 Scanned files"),
     (11, 690, "A scanned PDF without a text layer is refused: the server per-"),
     (11, 676, "forms no optical character recognition.")],
]


# More text per page, so that each page fills a chunk of its own.
FILLER = [
    "Every setting has a default that suits a single machine. The log level "
    "decides how much the server writes about each request. Secrets may be "
    "read from files named by a variable ending in _FILE, so that they never "
    "appear in the process list. A setting that cannot be parsed stops the "
    "server at start-up with a message naming the variable and the value it "
    "expected. The database pool size follows the number of processor cores "
    "unless it is set explicitly. Timeouts are given in Go duration syntax, "
    "such as thirty seconds or two minutes. The embedding model directory "
    "defaults to the one the setup script fills.",
    "The listener accepts plain HTTP; a reverse proxy in front of it "
    "terminates TLS. Binding to all interfaces is the default inside a "
    "container and a mistake on a shared host, where the loopback address "
    "is the safer choice. The readiness probe fails while migrations are "
    "pending, the liveness probe only while the process is wedged. A second "
    "listener for metrics can be bound to another address, so that "
    "dashboards reach it without reaching the API. Connections idle for "
    "longer than the keep-alive period are closed by the server.",
    "Each upload is extracted, cut into chunks that follow its headings, "
    "embedded and stored in one transaction. Re-uploading unchanged bytes "
    "costs nothing: the content hash matches and the document is reported "
    "as unchanged. A document larger than the body limit is refused before "
    "it is read. Tables keep their header row in every chunk that holds "
    "their rows, and code blocks are never cut in the middle of a line. "
    "Metadata given with a document is stored as JSON and can filter "
    "searches later.",
    "Scanned contracts and faxes are images of text. Running them through "
    "an OCR tool first produces a PDF with a text layer, which the server "
    "then reads like any other. Encrypted files are refused as well, with a "
    "message that names the password protection. A damaged file, whose "
    "cross-reference table or page tree cannot be read, is reported as "
    "unreadable with the reason the PDF engine gave. None of these failures "
    "stores anything, so a corrected file can simply be uploaded again.",
]


def with_filler(i, lines):
    y = min(l[1] for l in lines) - 28
    out = list(lines)
    for row in textwrap.wrap(FILLER[i], 62, break_on_hyphens=False):
        out.append((11, y, row))
        y -= 14
    return out


def manual():
    n = len(PAGES)
    objs = [b"<< /Type /Catalog /Pages 3 0 R >>",
            b"<< /Title (ragd Test Manual) >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % (5 + 2 * i) for i in range(n)), n),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    for i, lines in enumerate(PAGES):
        chrome = [(9, 770, "ragd Test Manual"), (9, 40, str(i + 1))]
        lines = with_filler(i, lines)
        objs.append(b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents %d 0 R >>" % (6 + 2 * i))
        objs.append(stream(text(chrome[:1] + lines + chrome[1:])))
    return pdf(objs)


def scan():
    # An 8x8 grey image drawn over the page, as a scanner would produce.
    img = zlib.compress(bytes(range(0, 256, 4)))
    objs = [b"<< /Type /Catalog /Pages 3 0 R >>",
            b"<< /Producer (scanner) >>",
            b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 6 0 R >> >> /Contents 5 0 R >>",
            stream(b"q 612 0 0 792 0 0 cm /Im1 Do Q"),
            b"<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % len(img) + img + b"\nendstream"]
    return pdf(objs)


OUTLINED = [
    # (heading line, outline title, outline level)
    ("Introduction", "Introduction", 1),
    ("1.1 Details", "Details", 2),
    ("Appendix", "Appendix", 1),
]


def outlined():
    # Headings in the body font size, so only the outline marks them.
    n = len(OUTLINED)
    page = lambda i: 7 + 2 * i
    objs = [b"<< /Type /Catalog /Pages 3 0 R /Outlines 5 0 R >>",
            b"<< /Producer (mkpdf) >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % page(i) for i in range(n)), n),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    # 5: outline root; 6: its first entry "Introduction" (child: "Details"),
    # then the pages, then "Details" and "Appendix".
    details, appendix = 7 + 2 * n, 8 + 2 * n
    objs.append(b"<< /Type /Outlines /First 6 0 R /Last %d 0 R /Count 3 >>" % appendix)
    objs.append(b"<< /Title (Introduction) /Parent 5 0 R /Next %d 0 R /First %d 0 R /Last %d 0 R /Count 1 /Dest [%d 0 R /XYZ 0 792 0] >>"
                % (appendix, details, details, page(0)))
    courier = 9 + 2 * n
    for i, (head, _, _) in enumerate(OUTLINED):
        lines = [(11, 720, head), (11, 690, "Text of the section about %s, which goes on for a line." % head.lower())]
        ops = text(lines)
        if i == len(OUTLINED) - 1:
            # A code example in Courier (0.6 em per character at 10 pt: 6 pt),
            # its second line indented by four characters.
            for x, y, s in [(72, 650, "if (ready) {"), (96, 638, "serve(port);"), (72, 626, "}")]:
                ops += b"BT /F2 10 Tf %d %d Td (%s) Tj ET\n" % (x, y, esc(s))
            ops += text([(11, 596, "Text after the example.")])
        objs.append(b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 %d 0 R >> >> /Contents %d 0 R >>" % (courier, page(i) + 1))
        objs.append(stream(ops))
    objs.append(b"<< /Title (Details) /Parent 6 0 R /Dest [%d 0 R /XYZ 0 792 0] >>" % page(1))
    objs.append(b"<< /Title (Appendix) /Parent 5 0 R /Prev 6 0 R /Dest [%d 0 R /XYZ 0 792 0] >>" % page(2))
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>")
    return pdf(objs)


BROKEN = [
    [(18, 720, "Operations"),
     (11, 690, "The cache nodes are watched around the clock by the on-call"),
     (11, 676, "team. The metrics exporter listens on port 9471 and exposes the")],
    [(11, 720, "tallowmere_keys_total counter for every namespace of the cluster."),
     (11, 690, "A second paragraph says that the exporter needs no configuration"),
     (11, 676, "of its own. Backups run nightly.")],
    [(11, 720, "Restores are started by hand from the newest backup set."),
     (11, 706, "They take about an hour for each terabyte stored.")],
]


def numbered_pages(title, pages):
    """Pages of Helvetica lines, each with its number in the footer."""
    n = len(pages)
    objs = [b"<< /Type /Catalog /Pages 3 0 R >>",
            b"<< /Title (%s) >>" % esc(title),
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % (5 + 2 * i) for i in range(n)), n),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    for i, lines in enumerate(pages):
        objs.append(b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents %d 0 R >>" % (6 + 2 * i))
        objs.append(stream(text(lines + [(9, 40, str(i + 1))])))
    return pdf(objs)


CAPTIONED = [
    [(18, 720, "Network"),
     (11, 690, "The plum network is laid out in three zones, each with its own"),
     (11, 676, "gateway and its own address range."),
     (11, 400, "Figure 3 Zones of the plum network")],
    [(11, 720, "iptables rules on each gateway drop packets between the guest"),
     (11, 706, "zone and the storage zone."),
     (11, 676, "The quince archive is copied every night to the storage zone, where"),
     (11, 662, "a second copy is kept for thirty days and the oldest copy is")],
    [(11, 720, "removed when a new one arrives. Restores take about an hour.")],
]


if __name__ == "__main__":
    open("manual.pdf", "wb").write(manual())
    open("scan.pdf", "wb").write(scan())
    open("outline.pdf", "wb").write(outlined())
    open("pagebreak.pdf", "wb").write(numbered_pages("Operations", BROKEN))
    open("caption.pdf", "wb").write(numbered_pages("Network", CAPTIONED))
