package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestExtractiveQuotesCommandsWithPipesAsWritten (h-break11): the
// extractive answer is documented as "quoted word for word", but a code
// line holding " | " is read as a table row and its "cells" are joined
// with "; ". On the PostgreSQL manual's "SQL Dump" page (its <pre
// class="programlisting"> examples, reproduced here), "how do I compress a
// dump with gzip?" is answered
//
//	pg_dump dbname; gzip > filename.gz [1]
//
// and "how do I use split to make 2 gigabyte chunks of a dump?" with
// "pg_dump dbname; split -b 2G - filename": other commands (pg_dump writes the dump to the terminal,
// then gzip waits on standard input), cited to a page that says "pg_dump
// dbname | gzip > filename.gz". Synopses suffer too, even inside a
// Markdown fenced code block: "ALTER ROLE { role_specification | ALL } …
// RESET configuration_parameter" is quoted "ALTER ROLE {
// role_specification; ALL } …" (as prose, without the fence). The shell-prompt exception
// (shellPipeline: "$ " or "# ") does not cover the manual's examples, which
// have no prompt. Live on the manual: `ragd ask "how do I restore a dump?"`
// quotes "pg_dump -h host1 dbname; psql -X -h host2 dbname".
//
// Expected: a line of a code block (or any line that is not a table row of
// the document) is quoted exactly as the source writes it.
func TestExtractiveQuotesCommandsWithPipesAsWritten(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	page := `<html><head><title>26.1. SQL Dump</title></head><body><div class="sect1">
<h2 class="title">26.1. SQL Dump</h2>
<div class="sect2"><h3 class="title">26.1.3. Handling Large Databases</h3>
<p>Some operating systems have maximum file size limits that cause problems when creating large <span class="application">pg_dump</span> output files. Fortunately, <span class="application">pg_dump</span> can write to the standard output, so you can use standard Unix tools to work around this potential problem. There are several possible methods:</p>
<p><span class="strong"><strong>Use compressed dumps.</strong></span> You can use your favorite compression program, for example <span class="application">gzip</span>:</p>
<pre class="programlisting">pg_dump <em class="replaceable"><code>dbname</code></em> | gzip &gt; <em class="replaceable"><code>filename</code></em>.gz</pre>
<p>Reload with:</p>
<pre class="programlisting">gunzip -c <em class="replaceable"><code>filename</code></em>.gz | psql <em class="replaceable"><code>dbname</code></em></pre>
<p><span class="strong"><strong>Use <code class="command">split</code>.</strong></span> The <code class="command">split</code> command allows you to split the output into smaller files that are acceptable in size to the underlying file system. For example, to make 2 gigabyte chunks:</p>
<pre class="programlisting">pg_dump <em class="replaceable"><code>dbname</code></em> | split -b 2G - <em class="replaceable"><code>filename</code></em></pre>
</div></div></body></html>`
	decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor,
		body: map[string]any{"source_uri": "backup-dump.html", "content_type": "html", "content": page}}), http.StatusOK)
	synopsis := "# ALTER ROLE\n\n## Synopsis\n\nThe forms of ALTER ROLE that reset a configuration parameter:\n\n" +
		"```\nALTER ROLE { role_specification | ALL } [ IN DATABASE database_name ] SET configuration_parameter { TO | = } { value | DEFAULT }\n" +
		"ALTER ROLE { role_specification | ALL } [ IN DATABASE database_name ] RESET configuration_parameter\n```\n"
	b.upsert(editor, "alterrole.md", synopsis)

	for _, c := range []struct{ question, want, wrong string }{
		{"how do I compress a dump with gzip?", "pg_dump dbname | gzip > filename.gz", "dbname; gzip"},
		{"how do I use split to make 2 gigabyte chunks of a dump?", "pg_dump dbname | split -b 2G - filename", "dbname; split"},
		{"how do I reset a configuration parameter for a role with ALTER ROLE?", "{ role_specification | ALL }", "role_specification; ALL"},
	} {
		ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
			body: map[string]any{"question": c.question}}), http.StatusOK)
		if ar.Refused {
			t.Errorf("%q: refused (%s); the premise is an answer quoting the command", c.question, ar.RefusalReason)
			continue
		}
		if strings.Contains(ar.Answer, c.wrong) || !strings.Contains(ar.Answer, c.want) {
			t.Errorf("%q: the answer does not quote %q as the source writes it:\n%s", c.question, c.want, ar.Answer)
		}
	}
}
