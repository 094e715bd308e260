package store

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
)

// The search's retrieval statements. The search queues them on one pgx.Batch
// and sends it with SendTenantBatch: one round trip inside the tenant
// transaction (each round trip costs 0.3-0.5 ms on the 2-core bench machine;
// docs/BENCHMARKS.md). So nothing in the batch can depend on another
// statement's result, and they are queued here rather than run by sqlc's
// methods (sqlc's batch mode sends one statement per batch). The statements
// sqlc can type are in queries/search.sql; the vector leg's are templates
// (template.go), because a typmod cannot be a bind parameter and the
// dedicated HNSW index's predicate names the model id as a constant; sqlc's
// catalog types neither keyword_search's RETURNS TABLE columns nor a
// multi-argument unnest, so the keyword leg and the missing-terms probe are
// written here. Every statement filters by tenant_id explicitly as well (the
// planner sees the constant under force_custom_plan; row-level security
// still applies).
//
// The HNSW settings (SetVectorSearchSettings in queries/search.sql) are:
// relaxed_order iterative scan, which keeps walking until enough rows pass
// the row-level security filter, ef_search ≥ 2× the candidates, and custom
// plans again after the batch's keyword statements ran on generic ones
// (GenericPlans).
//
// enable_sort = off makes the plan independent of the statistics: the only
// way to read a tenant's vectors in distance order without a Sort node is its
// dedicated HNSW index, and with sorting disabled every plan that sorts them
// (a sequential scan, or the chunk_embeddings_cache btree on (tenant_id,
// model_id, …), then a top-N sort) costs PostgreSQL's disable_cost more, so
// the index wins whatever the estimates. Measured: for a 120-row tenant with
// its index, a fresh ANALYZE of a table holding little else made the plan Seq
// Scan + Sort, and in the full test suite the cache btree + Sort; with the
// setting the walk is chosen even under costs by which scanning and sorting
// are free (search.TestDedicatedIndexIsWalked). Without the index every plan
// sorts, so the cheapest exact scan is still chosen; the sorts outside the
// inner walk (the re-sort of the 2n candidates, the content join's order) are
// in every plan alike.
//
// jit = off goes with it: disable_cost lifts the plan's total cost over
// jit_above_cost, and compiling the plan's expressions then cost 0.5-1.1 s
// per search (measured on the 120-row tenant: 0.8 ms with jit off).
//
// The settings are local to the transaction, which is the whole batch, so
// QueueVectorLeg must be the last call on a batch: it queues them right
// before the HNSW statement, and no other plan sees them.
// lexemesFormsExpr is lexemesExpr with the forms of the words no readable
// chunk has ($11 words, $12 forms; keywordLegForms).
const lexemesFormsExpr = `(SELECT array(SELECT l FROM unnest(tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), $3::text))) AS l
	UNION SELECT f FROM unnest($11::text[], $12::text[]) AS a (word, form)
	CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), a.form))) AS f
	WHERE NOT EXISTS (SELECT 1 FROM unnest(tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), a.word))) AS w (lexeme)
	                  CROSS JOIN LATERAL (SELECT 1 FROM postings p WHERE p.tenant_id = $2 AND p.lexeme = w.lexeme LIMIT 1) h)))::text[]`

// keywordLegForms is keywordLeg with the other number of the
// question's nouns ($11 the words as written, $12 their forms:
// analyze.InflectedForms) searched where no chunk the caller can read
// has the word as written: a word the documents write in the
// question's number keeps its one term (Pygments' "lexer aliases",
// searched for "alias" too, ranked the entries taking an alias
// argument above the lexer asked about). A posting probe per lexeme,
// as missingTerms' (the postings policy filters by the caller's
// principals).
var keywordLegForms = strings.ReplaceAll(keywordLeg, lexemesExpr, lexemesFormsExpr)

// literalProbeDF bounds the chunks the missing-terms probe reads for one
// literal probe (see missingTerms).
const literalProbeDF = "1000"

const (
	// contentHead + leg + contentTail + ORDER BY is the leg's rows
	// (chunk_id, value) with what a result cites ($2 tenant). The chunks
	// are read as one set (c.id = ANY(the leg's ids)) and then their
	// documents (d.id = ANY(those chunks' document ids)): at most n rows
	// each, joined in memory, whatever the plan. Joined row by row, stale
	// statistics pick the access path: right after a bulk ingest (a tenant's
	// chunks estimated at one row) the planner scanned all the tenant's
	// chunks through (tenant_id, document_id, chunk_index) once per hit
	// (0.7 ms each for 5,800 chunks; 60 ms joined freely), and the documents
	// likewise. A chunk deleted since its leg read it is left out.
	contentHead = `WITH v (chunk_id, value) AS MATERIALIZED (
`
	contentTail = contentChunks + contentRest + contentJoin

	// contentChunks, contentRest and contentJoin are contentTail's parts, so
	// that a leg can read more of its chunks (keywordLeg: the matched
	// lexemes) with the same reads.
	contentChunks = `
), c AS MATERIALIZED (
	SELECT c.id, c.document_id, c.chunk_index, c.start_offset, c.end_offset, c.heading_path, c.content, c.page_start, c.page_end, c.anchor,
		c.sections, c.section_anchors, c.anchor_marks`
	contentRest = `
	FROM chunks c
	WHERE c.tenant_id = $2 AND c.id = ANY (ARRAY(SELECT v.chunk_id FROM v))
), d AS MATERIALIZED (
	SELECT d.id, d.source_uri, d.title, d.chunk_count
	FROM documents d
	WHERE d.tenant_id = $2 AND d.id = ANY (ARRAY(SELECT c.document_id FROM c))
)
SELECT v.chunk_id, v.value, c.document_id, c.chunk_index, c.start_offset, c.end_offset, c.heading_path, c.content, d.source_uri, d.title,
	coalesce(c.page_start, 0), coalesce(c.page_end, 0), d.chunk_count, coalesce(c.anchor, ''),
	coalesce(c.sections, '{}'), coalesce(c.section_anchors, '{}'), coalesce(c.anchor_marks, '{}')`
	contentJoin = `
FROM v JOIN c ON c.id = v.chunk_id JOIN d ON d.id = c.document_id
`

	// exactVectorTemplate and hnswVectorTemplate are the vector leg ($1
	// query vector, $2 tenant, $3 n; HNSW $4 2n), picked by the tenant's
	// chunk count. (One statement gating both by the count in SQL cost ~11
	// ms per search at executor start-up for the 200k-chunk tenant, the
	// never-run branch included.) Placeholders: dims (the model's
	// dimensions) and model_id, both from the model registry.
	//
	// exactVectorTemplate scans the tenant's own rows (tenant_id btree); its
	// distance expression differs from the index expression, so HNSW is
	// never used.
	exactVectorTemplate = contentHead + `	SELECT e.chunk_id, e.embedding <=> $1 AS distance
	FROM chunk_embeddings e
	WHERE e.tenant_id = $2 AND e.model_id = /* TEMPLATE: model_id */
	ORDER BY 2, 1 LIMIT $3` + contentTail + `ORDER BY v.value, v.chunk_id`

	// hnswVectorTemplate walks a large tenant's dedicated partial index
	// over embedding::halfvec(<dims>) WHERE model_id AND tenant_id
	// (vindex.Ensure; internal/store/indexes.go says why halfvec) for 2n
	// rows (under force_custom_plan the planner proves the predicate from
	// the tenant id), then orders those candidates by their exact distance
	// at full precision, outside the relaxed walk: the 16-bit distances
	// only choose the candidates. The query vector is cast once to
	// vector(<dims>) and from there to halfvec (a parameter cast to two
	// types is an error). Without the index yet (a tenant that grew past
	// the threshold since `ragd tenant index` last ran) it is an exact scan.
	hnswVectorTemplate = contentHead + `	SELECT w.chunk_id, w.embedding <=> $1::vector(/* TEMPLATE: dims */) AS distance FROM (
		SELECT e.chunk_id, e.embedding
		FROM chunk_embeddings e
		WHERE e.tenant_id = $2 AND e.model_id = /* TEMPLATE: model_id */
		ORDER BY e.embedding::halfvec(/* TEMPLATE: dims */) <=> ($1::vector(/* TEMPLATE: dims */))::halfvec(/* TEMPLATE: dims */)
		LIMIT $4) w
	ORDER BY 2, 1 LIMIT $3` + contentTail + `ORDER BY v.value, v.chunk_id`

	// filteredVectorTemplate is exact within the chunks of documents
	// matching the filters ($1 query vector, $2 tenant, $3 n, $4 source_uri
	// prefix, $5 metadata containment): vector_search_filtered in
	// db/migrations, which finds the chunks, then their vectors, with
	// constant arrays, so that every plan reads each row at most once. As
	// one join, a tenant whose rows no ANALYZE had seen yet was planned as
	// nested loops re-reading all its chunks and vectors for each row (17 s
	// for 1,200 documents of 5 chunks); written as LATERAL lookups, the
	// vector lookup took the (tenant_id, model_id, …) index, estimated as
	// cheap as the key, and scanned the tenant's vectors for each chunk.
	filteredVectorTemplate = contentHead + `	SELECT f.chunk_id, f.distance
	FROM vector_search_filtered($2::uuid, /* TEMPLATE: model_id */::smallint, $1::vector, $3::int, $4::text, $5::jsonb) f` +
		contentTail + `ORDER BY v.value, v.chunk_id`

	// lexemesExpr is the query text's lexemes ($1 text-search configuration,
	// always explicit, never default_text_search_config; $3 text). Stop
	// words yield none. It is a sub-select without outer references, so it
	// is computed once per statement (an InitPlan): as a plain expression
	// it was computed again for every row that compared a lexeme with it
	// (term_stats rows inside keyword_search, each candidate chunk's
	// lexemes for the matched ones), and parsing a 4,000-character query
	// takes up to 0.2 s, so such a query held a connection for 100 s.
	lexemesExpr = `(SELECT tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), $3::text)))::text[]`

	// keywordLeg is the keyword leg: the exact Okapi BM25 top n over the
	// tenant's posting lists, filters applied before ranking
	// (keyword_search in db/migrations; $1 configuration, $2 tenant, $3
	// text, $4 k1, $5 b, $6 postings per term for the pruning threshold, $7
	// n, $8 filtered, $9 prefix, $10 metadata), best first, each chunk with the query lexemes
	// it contains (the answerability signal's term coverage). A chunk
	// deleted since its postings were read is left out.
	keywordLeg = contentHead + `	SELECT k.chunk_id, k.score
	FROM keyword_search($2::uuid, ` + lexemesExpr + `, $4::float8, $5::float8, $6::int, $7::int, $8::bool, $9::text, $10::jsonb) k` +
		contentChunks + `,
		ARRAY(SELECT l FROM unnest(tsvector_to_array(c.tsv)) AS l WHERE l = ANY (` + lexemesExpr + `)) AS matched` +
		contentRest + `, c.matched` + contentJoin + `ORDER BY v.value DESC, v.chunk_id`

	// missingTerms returns the probes ($3 words, $4 their search texts)
	// none of whose lexemes any chunk the caller can read has ($1
	// configuration, $2 tenant); a probe without lexemes (a stop word) is
	// never missing. Each lexeme is one probe of its posting list for a
	// visible posting (LIMIT 1: a parameterised index probe under any
	// estimate; the postings policy filters by the caller's principals, so
	// a name that only hidden documents contain is reported missing, as
	// for a tenant without them; term_stats counts hidden chunks too, so
	// it cannot answer this). Written as lexeme = ANY (lexemes) over
	// term_stats, the planner had turned the NOT EXISTS into an anti-join
	// that read every term_stats row of the tenant once per probe (119 ms
	// for four names on the manual's 20,645 terms; 1.3 ms as probes).
	// A literal probe ($5) is also missing when its first lexeme is rare
	// (df ≤ literalProbeDF, or in no chunk at all) and no readable chunk
	// holding that lexeme contains the word itself, case-insensitively: a
	// joined identifier can stand for another one (pg_stat_io and
	// pg_statio_ are both pgstatio), and a release name is the name and the
	// number together ("PostgreSQL 18": its first lexeme is the number's).
	// A common lexeme is taken as present, so the check reads at most
	// literalProbeDF chunks a probe, by primary key. The first lexeme is
	// joined as a column of unnest: written as l.lexemes[1] in the
	// conditions, it was no index condition, and each literal probe read the
	// tenant's whole postings index (1.1 s on the manual's tenant; 2 ms now).
	// A katakana word ($6, a pattern: KanaPattern) is compared with the
	// chunks' text without prolonged sound marks, middle dots and blanks,
	// which Japanese writes or leaves out in the same word (インターフェース,
	// インタフェース; ローカル・リポジトリ), and a long one with one kana
	// of its spelling free (リポジトリ, レポジトリ).
	missingTerms = `SELECT w.word
FROM unnest($3::text[], $4::text[], $5::bool[], $6::text[]) AS w (word, probe, literal, kana)
CROSS JOIN LATERAL (SELECT tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), w.probe)) AS lexemes) l
WHERE cardinality(l.lexemes) > 0
  AND (NOT EXISTS (SELECT 1 FROM unnest(l.lexemes) AS x (lexeme)
                   CROSS JOIN LATERAL (SELECT 1 FROM postings p WHERE p.tenant_id = $2 AND p.lexeme = x.lexeme LIMIT 1) h)
    OR w.literal AND EXISTS (
      SELECT 1 FROM unnest(l.lexemes[1:1]) AS f (lexeme)
      LEFT JOIN term_stats t ON t.tenant_id = $2 AND t.lexeme = f.lexeme
      WHERE coalesce(t.df, 0) <= ` + literalProbeDF + `
        AND NOT EXISTS (SELECT 1 FROM postings p JOIN chunks c ON c.tenant_id = p.tenant_id AND c.id = p.chunk_id
          WHERE p.tenant_id = $2 AND p.lexeme = f.lexeme
            AND CASE WHEN w.kana = '' THEN strpos(lower(c.content), lower(w.word)) > 0 OR strpos(lower(c.heading_path), lower(w.word)) > 0
                     ELSE translate(c.content, ` + kanaMarks + `, '') ~ w.kana OR translate(c.heading_path, ` + kanaMarks + `, '') ~ w.kana
                END)))`
)

// releaseDate is the date a change log's heading gives its release after
// the number, in parentheses or after a dash or a comma ("0.22.1
// (2022-12-31)", "v2.1.0 - 2023-01-05", "Version 1.10.4, 2016-02-27"), as
// a quoted SQL string of a regular expression. A line holding only a
// release's number and its date is that release's heading, as "Version
// 1.5.1" alone on its line is, on a page whose heading path names the
// product and calls itself a change log (notesTitle): bidict's
// "Changelog - bidict" numbers its sections "0.22.1 (2022-12-31)", and
// "bidict 0.23.0" was answered from 0.20.0's notes; pg8000's "Release
// Notes" heads each release "Version 1.10.4, 2016-02-27", and a question
// on 1.10.4 was refused as about a release no document covers (two
// held-out trials). Elsewhere a number and a date is no release: "Version
// 1.3, 3 November 2008" heads the GNU FDL.
const releaseDate = `'[[:space:]]*([(][[:space:]]*|[-–—,][[:space:]]*)([0-9]{4}-[0-9]{1,2}-[0-9]{1,2}|[[:alpha:]]+[[:space:]]+[0-9]{1,2}(st|nd|rd|th)?,?[[:space:]]+[0-9]{4}|[0-9]{1,2}[[:space:]]+[[:alpha:]]+[[:space:]]+[0-9]{4})[[:space:]]*[)]?'`

// notesTitle matches the heading path of a page of release notes: a change
// log, release notes, a release history, news. Not a history alone: a
// manual's "Document history" dates its own editions ("1.0 (2019-03-01)"),
// and a product named in its title was taken for one whose releases the
// documents cover (a review).
const notesTitle = `'(^|[^[:alpha:]])(releases?|changes|changelog|change log|(release|version|change) history|news|what.s new)([^[:alpha:]]|$)'`

// releaseNotes is the condition, inside versionedNames, that chunk c is a
// release's notes of name e (r: the name's patterns): the heading path
// names it, and a line of the chunk (or its heading) is a release's own,
// "Version 1.5.1" alone, or on a page of release notes a number and its
// date (releaseDate).
const releaseNotes = `c.heading_path ~* e.name AND ((c.heading_path || E'\n' || c.content) ~* r.notes OR c.heading_path ~* ` + notesTitle + ` AND (c.heading_path || E'\n' || c.content) ~* r.dated)`

// versionedNames returns the names ($3) that a readable chunk writes
// followed by a number ("PostgreSQL 15", "Java v21"), or where $4 marks
// the name (typed in lower case), by a number that can only be a release:
// "v" and a dotted number, three dotted parts ("setuptools 64.0.0"; also
// after a closing parenthesis, as GNU programs print their version,
// "ltmain.sh (GNU libtool) 2.4.7", or a hyphen, as a release's tarball
// is named, "libtool-2.4.7"), or
// a dotted number after the name capitalised ("Python 3.8") where the
// documents also capitalise the name inside a sentence, after a word on
// the same line ("… with Python"), as a proper name is (a sentence's or a
// line's first word is capitalised whatever it is, and "Returns 1.5 when
// …" under a heading made a question's "returns 9" a release no document
// writes); "cosine 0.9" is a measured value: names the documents give releases of ($1
// configuration, $2 tenant). A release counts in a chunk's
// heading path too, as a site titles its pages ("python-ldap FAQ —
// python-ldap 3.4.3 documentation", whose text never writes the name with
// a release: "python-ldap 3.5.0" was not taken for a release the
// documents do not cover), in brackets ("Flask-Limiter {3.3.0}"), and as
// Sphinx titles a project's pages, the name, a dotted number of two parts
// and "documentation" ("Changelog — humanfriendly 10.0 documentation":
// "humanfriendly release 10.2" was answered from old releases' notes);
// so does a page titled with the name whose sections are its releases'
// notes, a heading or a line of its own "Version 1.5.1" ("Changelog —
// Logbook": "Logbook 2.0" was answered from 0.4.2's notes). Every readable chunk
// holding the name's first lexeme is read (the postings policy filters by
// the caller's principals) for a case-insensitive match of the name,
// blanks, an optional "v" and a digit, the search stopping at the first
// match; a name in more than versionedProbeDF chunks (hidden ones counted,
// as term_stats counts them) is not looked for and does not count as one
// with releases. A first slice of the postings instead (they are in
// chunk-id order, random UUIDs) made the answer depend on the ids chunks
// happened to get. Written as LATERAL … LIMIT 1 subqueries, each name is
// index probes of its own: as EXISTS, the planner hashed every posting of
// the tenant (1 s a question on the manual). The lexeme is a column of
// unnest, as in missingTerms: computed in the condition, it was no index
// condition under a generic plan (257,909 postings read, 250 ms).
const versionedNames = `SELECT n.name
FROM unnest($3::text[], $4::boolean[]) AS n (name, dotted)
CROSS JOIN LATERAL unnest((tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), n.name)))[1:1]) AS l (lexeme)
CROSS JOIN LATERAL (SELECT '(^|[^[:alnum:]_])' || regexp_replace(n.name, '([^[:alnum:][:space:]])', '\\\1', 'g') AS name) e
CROSS JOIN LATERAL (SELECT e.name || '[[:space:]]+[({[]?[vV]?[0-9]' AS pattern,
                           e.name || '(\)?[[:space:]]+[({[]?|-)([vV][0-9]+\.[0-9]|[0-9]+\.[0-9]+\.[0-9])' AS versioned,
                           '(^|[^[:alnum:]_])' || initcap(n.name) || '[[:space:]]+[vV]?[0-9]+\.[0-9]' AS named,
                           '[^.!?[:space:]][ \t]+' || initcap(n.name) || '([^[:alnum:]_]|$)' AS proper,
                           e.name || '[[:space:]]+[vV]?[0-9]+(\.[0-9]+)+[[:space:]]+(documentation|docs|manual)([^[:alnum:]_]|$)' AS titled,
                           '(>[[:space:]]*|(^|\n))(version|release)[[:space:]]+v?[0-9]+(\.[0-9]+)+[[:space:]]*(\n|>|$)' AS notes,
                           '(>[[:space:]]*|(^|\n))((version|release)[[:space:]]+)?v?[0-9]+(\.[0-9]+)+' || ` + releaseDate + ` || '[[:space:]]*(\n|>|$)' AS dated) r
CROSS JOIN LATERAL (SELECT 1 FROM term_stats t WHERE t.tenant_id = $2 AND t.lexeme = l.lexeme AND t.df <= ` + versionedProbeDF + `) s
CROSS JOIN LATERAL (SELECT 1 FROM postings p JOIN chunks c ON c.tenant_id = p.tenant_id AND c.id = p.chunk_id
                    WHERE p.tenant_id = $2 AND p.lexeme = l.lexeme
                      AND CASE WHEN n.dotted THEN c.content ~* r.versioned OR c.content ~ r.named OR c.heading_path ~* r.versioned OR c.heading_path ~* r.titled OR ` + releaseNotes + `
                               ELSE c.content ~* r.pattern OR c.heading_path ~* r.pattern OR ` + releaseNotes + ` END
                    LIMIT 1) h
LEFT JOIN LATERAL (SELECT 1 AS hit FROM postings p JOIN chunks c ON c.tenant_id = p.tenant_id AND c.id = p.chunk_id
                   WHERE n.dotted AND p.tenant_id = $2 AND p.lexeme = l.lexeme
                     AND (c.content ~* r.versioned OR c.content ~ r.proper OR c.heading_path ~* r.versioned OR c.heading_path ~* r.titled OR ` + releaseNotes + `)
                   LIMIT 1) pn ON true
WHERE NOT n.dotted OR pn.hit IS NOT NULL`

// writtenReleases returns the releases ($3, as written in the question)
// that a readable chunk writes as their name ($4), blanks (after a
// closing parenthesis too: "(GNU libtool) 2.4.7") or a hyphen
// ("libtool-2.4.7"), an optional "version" and "v", and their number followed by anything but a digit
// ($5, a regular expression: "3" matches "Python 3.8", "3.1" matches
// "3.1.2" but not "3.10"): a release the documents write with more parts
// than the question is one they cover. A heading path counts with up to
// two words between the name and the number, the number in parentheses
// perhaps, as a site titles its pages ("… — Jinja Documentation (3.1.x)",
// "Requests 2.28.1 documentation"): "Which Python versions does Jinja 3.1
// support?" was refused over every page of Jinja 3.1's documentation. So
// does a release's section of a page titled with the name, its heading or
// a line of its own "Version 1.5.1" ("Changelog — Logbook"), the number
// ending it: the GNU FDL's "Version 1.3, 3 November 2008" under
// "Autoconf > … License" is no release of Autoconf. On a page of release
// notes (notesTitle) the number may be followed by its date
// (releaseDate) or by a word or two in parentheses ("0.23.0
// (unreleased)", "2.1.0 (yanked)": the notes are there, released or not,
// a review). The chunks read are those holding
// the name's first lexeme, until one matches; a name in more than
// versionedProbeDF chunks is not looked for and its release counts as
// written (a common name is no evidence of absence), as for versionedNames.
const writtenReleases = `SELECT r.written
FROM unnest($3::text[], $4::text[], $5::text[]) AS r (written, name, number)
CROSS JOIN LATERAL unnest((tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), r.name)))[1:1]) AS l (lexeme)
JOIN term_stats t ON t.tenant_id = $2 AND t.lexeme = l.lexeme
LEFT JOIN LATERAL (SELECT 1 AS hit FROM postings p JOIN chunks c ON c.tenant_id = p.tenant_id AND c.id = p.chunk_id
                   WHERE t.df <= ` + versionedProbeDF + ` AND p.tenant_id = $2 AND p.lexeme = l.lexeme
                     AND (c.content ~* ('(^|[^[:alnum:]_])' || regexp_replace(r.name, '([^[:alnum:][:space:]])', '\\\1', 'g') ||
                                        '(\)?[[:space:]]+|-)(version[[:space:]]+)?[vV]?' || replace(r.number, '.', '\.') || '([^0-9]|$)')
                          OR c.heading_path ~* ('(^|[^[:alnum:]_])' || regexp_replace(r.name, '([^[:alnum:][:space:]])', '\\\1', 'g') ||
                                        '([[:space:]]+[[:alpha:]]+){0,2}[[:space:]]+[(]?[vV]?' || replace(r.number, '.', '\.') || '([^0-9]|$)')
                          OR c.heading_path ~* ('(^|[^[:alnum:]_])' || regexp_replace(r.name, '([^[:alnum:][:space:]])', '\\\1', 'g') || '([^[:alnum:]_]|$)')
                             AND ((c.heading_path || E'\n' || c.content) ~* ('(>[[:space:]]*|(^|\n))(version|release)[[:space:]]+v?' || replace(r.number, '.', '\.') || '(\.[0-9]+)*[[:space:]]*(\n|>|$)')
                                  OR c.heading_path ~* ` + notesTitle + `
                                     AND (c.heading_path || E'\n' || c.content) ~* ('(>[[:space:]]*|(^|\n))((version|release)[[:space:]]+)?v?' || replace(r.number, '.', '\.') || '(\.[0-9]+)*(' || ` + releaseDate + ` || '|[[:space:]]*[(][^)\n]{1,30}[)])[[:space:]]*(\n|>|$)')))
                   LIMIT 1) h ON true
WHERE t.df > ` + versionedProbeDF + ` OR h.hit IS NOT NULL`

// QueueWrittenReleases queues writtenReleases on b (written, names and
// numbers pairwise); fn receives the releases the documents write, when
// the batch is closed.
func QueueWrittenReleases(b *pgx.Batch, tsConfig string, tenantID uuid.UUID, written, names, numbers []string, fn func([]string) error) {
	b.Queue(writtenReleases, tsConfig, tenantID, written, names, numbers).Query(func(rows pgx.Rows) error {
		found, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		return fn(found)
	})
}

// bareReleases returns the release numbers ($2) that a chunk the caller
// can read writes as a version of its own, without a name, in one of the
// spellings $3 gives each ($2 and $3 pairwise: "64" with "v64", "64.0",
// "v64.0.0" …): how documents number their own releases ("Changed in
// version v64.0.0"), never with the product's name. Each spelling reads
// the readable chunks holding its lexeme (the postings policy filters by
// the caller's principals) until one writes it as a version (LIMIT 1).
// (A probe by prefix, every lexeme starting "64.", would need an index in
// the C collation: the default collation orders "64.0.0" away from "64.".)
//
// A spelling without the "v" counts only after words dating a version
// ("Changed in version 64.0", "Version: 4.1.2", "New in 3.0", "Since
// 7.47.0", "Starting in 7.43.0", "added in 7.47.0", "as of 2.1") or
// opening a line as a change log's headings number releases, alone on it
// or before a date, a parenthesis, a colon or a dash ("3.2.1
// (2024-05-01)", "[3.2.1] - 2024-05-01"; a manual's numbered section,
// "4.2 Link mode", is no release): elsewhere a dotted number is as
// often another thing's ("the Creative Commons Attribution-Share Alike
// 3.0 license" of every GNU manual's licence, "freebsd3.0"), and it made
// "libtool 3.0" a release of the manual's own. A number in more than
// literalProbeDF chunks (hidden ones counted) is not read for, and counts
// as written: reading them all took seconds.
const bareReleases = `SELECT DISTINCT f.number
FROM unnest($2::text[], $3::text[]) AS f (number, lexeme)
JOIN term_stats t ON t.tenant_id = $1 AND t.lexeme = f.lexeme
LEFT JOIN LATERAL (SELECT 1 AS hit FROM postings p
                   WHERE (f.lexeme LIKE 'v%' OR t.df > ` + literalProbeDF + `) AND p.tenant_id = $1 AND p.lexeme = f.lexeme
                   LIMIT 1) bare ON true
LEFT JOIN LATERAL (SELECT 1 AS hit FROM postings p JOIN chunks c ON c.tenant_id = p.tenant_id AND c.id = p.chunk_id
                   WHERE f.lexeme NOT LIKE 'v%' AND t.df <= ` + literalProbeDF + ` AND p.tenant_id = $1 AND p.lexeme = f.lexeme
                     AND c.content ~* ('(^|[^[:alnum:]_])(version|versions|release|releases|changes in|new in|since|as of|' ||
                                       '(starting|beginning) (in|with|from)|(added|introduced|fixed|removed|deprecated|changed|available) (in|since)|prior to)' ||
                                       '[[:space:]]*:?[[:space:]]*' ||
                                       replace(f.lexeme, '.', '\.') || '([^[:alnum:]_.]|\.([^0-9]|$)|$)' ||
                                       '|(^|\n)[#*[:space:]]*\[?' || replace(f.lexeme, '.', '\.') || '\]?[[:space:]]*($|\n|[(:—–-]|[0-9]{4}-)')
                   LIMIT 1) named ON true
WHERE bare.hit IS NOT NULL OR named.hit IS NOT NULL`

// QueueBareReleases queues bareReleases on b; fn receives the numbers the
// documents write as versions of their own, when the batch is closed.
func QueueBareReleases(b *pgx.Batch, tenantID uuid.UUID, numbers, spellings []string, fn func([]string) error) {
	b.Queue(bareReleases, tenantID, numbers, spellings).Query(func(rows pgx.Rows) error {
		found, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		return fn(found)
	})
}

// versionedProbeDF bounds the chunks versionedNames may read for one name.
const versionedProbeDF = "20000"

// QueueVersionedNames queues versionedNames on b; fn receives the names the
// documents write with a number, when the batch is closed.
func QueueVersionedNames(b *pgx.Batch, tsConfig string, tenantID uuid.UUID, names []string, dotted []bool, fn func([]string) error) {
	b.Queue(versionedNames, tsConfig, tenantID, names, dotted).Query(func(rows pgx.Rows) error {
		found, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		return fn(found)
	})
}

// identifierFamilies returns the identifiers ($3) of whose family a
// readable chunk writes a member ($4 a POSIX pattern matching a member,
// case-insensitively; $5 the parts the members share, whose lexemes find
// the chunks to read; $1 configuration, $2 tenant). The chunks read are
// those holding the shared parts' rarest lexeme, until one matches; a
// family whose rarest lexeme is in more than familyProbeDF chunks (hidden
// ones counted, as term_stats counts them) is not looked for, and one with
// no lexeme in any chunk has no member. The lexeme is a column of a
// LATERAL subquery and each family's read a LATERAL … LIMIT 1, as in
// versionedNames, so that each is index probes of its own.
const identifierFamilies = `SELECT DISTINCT f.word
FROM unnest($3::text[], $4::text[], $5::text[]) AS f (word, pattern, shared)
CROSS JOIN LATERAL (SELECT t.lexeme, t.df
                    FROM unnest(tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), f.shared))) AS x (lexeme)
                    JOIN term_stats t ON t.tenant_id = $2 AND t.lexeme = x.lexeme
                    ORDER BY t.df, t.lexeme LIMIT 1) l
CROSS JOIN LATERAL (SELECT 1 FROM postings p JOIN chunks c ON c.tenant_id = p.tenant_id AND c.id = p.chunk_id
                    WHERE p.tenant_id = $2 AND p.lexeme = l.lexeme AND c.content ~* f.pattern
                    LIMIT 1) h
WHERE l.df <= ` + familyProbeDF

// familyProbeDF bounds the chunks identifierFamilies may read for one
// family.
const familyProbeDF = "2000"

// IdentifierFamily is one family an identifier would belong to (see
// identifierFamilies).
type IdentifierFamily struct {
	// Word is the identifier; Pattern a POSIX regular expression matching
	// another member of the family; Shared the parts the members share, as
	// words.
	Word, Pattern, Shared string
}

// QueueIdentifierFamilies queues identifierFamilies on b; fn receives the
// identifiers of a family some readable chunk writes a member of, when the
// batch is closed.
func QueueIdentifierFamilies(b *pgx.Batch, tsConfig string, tenantID uuid.UUID, fams []IdentifierFamily, fn func([]string) error) {
	words, patterns, shared := make([]string, len(fams)), make([]string, len(fams)), make([]string, len(fams))
	for i, f := range fams {
		words[i], patterns[i], shared[i] = f.Word, f.Pattern, f.Shared
	}
	b.Queue(identifierFamilies, tsConfig, tenantID, words, patterns, shared).Query(func(rows pgx.Rows) error {
		found, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		return fn(found)
	})
}

// The statement texts the Queue functions send, for tests that check what a
// batch holds and in which order.
const (
	VectorSettingsSQL = setVectorSearchSettings
	CustomPlansSQL    = customPlansSQL
	KeywordTermsSQL   = keywordTerms
	KeywordLegSQL     = keywordLeg
	MissingTermsSQL   = missingTerms
	// IdentifierFamiliesSQL is QueueIdentifierFamilies' statement.
	IdentifierFamiliesSQL = identifierFamilies
)

// LegRow is one chunk a retrieval leg returned, with what a search result
// cites.
type LegRow struct {
	ChunkID uuid.UUID
	// Value is the cosine distance (vector leg) or the BM25 score (keyword
	// leg).
	Value                                  float64
	DocumentID                             uuid.UUID
	ChunkIndex, StartOffset, EndOffset     int32
	HeadingPath, Content, SourceURI, Title string
	// PageStart and PageEnd are the 1-based pages of a paged document (PDF)
	// the chunk spans; 0 for other documents.
	PageStart, PageEnd int32
	// DocChunks is the chunk's document's number of chunks.
	DocChunks int32
	// Anchor is the fragment identifier of the section the chunk starts
	// in ("" when none is known: chunk.Chunk.Anchor).
	Anchor string
	// Sections are the heading paths of the sections the chunk's text lies
	// in, in order, SectionAnchors their anchors ('' for none), and
	// AnchorMarks where inside the chunk the anchor in effect changes
	// ("<document offset>\t<anchor>"); empty when unknown
	// (chunk.Chunk.Sections, SectionAnchors, AnchorMarks).
	Sections, SectionAnchors, AnchorMarks []string
	// Matched are the query lexemes the chunk contains (keyword leg only).
	Matched []string
}

// VectorPlan is how the vector leg reads a tenant's vectors.
type VectorPlan int

const (
	// VectorExact scans the tenant's vectors exactly.
	VectorExact VectorPlan = iota
	// VectorHNSW walks the tenant's dedicated HNSW index (an exact scan
	// while it has none), under the transaction-local settings queued before
	// it.
	VectorHNSW
	// VectorFiltered is exact within the chunks of documents matching a
	// source_uri prefix and metadata containment.
	VectorFiltered
)

// maxDims is pgvector's largest vector type.
const maxDims = 16000

// VectorLegSQL is the vector leg's statement for plan, a model of dims
// dimensions and id modelID. Errors: ErrTemplate for dims outside 1-16,000,
// a model id below 1 or an unknown plan.
func VectorLegSQL(plan VectorPlan, dims int, modelID int16) (string, error) {
	if dims < 1 || dims > maxDims {
		return "", fmt.Errorf("%w: %d dimensions", ErrTemplate, dims)
	}
	if modelID < 1 {
		return "", fmt.Errorf("%w: model id %d", ErrTemplate, modelID)
	}
	values := map[string]TemplateValue{"model_id": TemplateInt(int64(modelID))}
	var tmpl string
	switch plan {
	case VectorExact:
		tmpl = exactVectorTemplate
	case VectorHNSW:
		tmpl = hnswVectorTemplate
		values["dims"] = TemplateInt(int64(dims))
	case VectorFiltered:
		tmpl = filteredVectorTemplate
	default:
		return "", fmt.Errorf("%w: vector plan %d", ErrTemplate, plan)
	}
	return renderTemplate(tmpl, values)
}

// VectorLegParams are the vector leg's inputs.
type VectorLegParams struct {
	Plan     VectorPlan
	ModelID  int16
	TenantID uuid.UUID
	// Vector is the query embedding; its length is the model's dimensions.
	Vector []float32
	// N is the number of rows returned.
	N int
	// EfSearch is hnsw.ef_search (VectorHNSW only).
	EfSearch int
	// Prefix and Metadata filter the documents (VectorFiltered only).
	Prefix   string
	Metadata []byte
	// AfterGenericPlans says the batch runs on generic plans (GenericPlans):
	// the exact scan switches back to custom plans first (the HNSW walk's
	// settings always do; the filtered search's function plans its own
	// statements and the rest of it reads by key).
	AfterGenericPlans bool
}

// QueueVectorLeg queues the vector leg on b (VectorHNSW: the walk's settings,
// then the statement); fn receives its rows, nearest first, when the batch is
// closed. It must be the last statement queued on b: the settings last to
// the end of the transaction. Errors: VectorLegSQL's, with nothing queued.
func QueueVectorLeg(b *pgx.Batch, p VectorLegParams, fn func([]LegRow) error) error {
	sql, err := VectorLegSQL(p.Plan, len(p.Vector), p.ModelID)
	if err != nil {
		return err
	}
	vec := pgvector.NewVector(p.Vector)
	switch p.Plan {
	case VectorFiltered:
		b.Queue(sql, vec, p.TenantID, p.N, p.Prefix, p.Metadata).Query(collectLegRows(fn, false))
	case VectorHNSW:
		b.Queue(setVectorSearchSettings, strconv.Itoa(p.EfSearch))
		b.Queue(sql, vec, p.TenantID, p.N, 2*p.N).Query(collectLegRows(fn, false))
	default:
		if p.AfterGenericPlans {
			b.Queue(customPlansSQL)
		}
		b.Queue(sql, vec, p.TenantID, p.N).Query(collectLegRows(fn, false))
	}
	return nil
}

// KeywordTerm is one lexeme of a query with its document frequency in the
// tenant (0 when no chunk has it) and the tenant's chunk count.
type KeywordTerm struct {
	Lexeme         string
	DF, ChunkCount int64
	// Readable: a chunk the caller can read has the lexeme (DF counts
	// hidden chunks too).
	Readable bool
	// Optional: the lexeme is an alternative the search added, not one of
	// the question's own (KeywordTermsParams.Required).
	Optional bool
}

// QueueKeywordTerms queues KeywordTerms on b; fn receives the query's
// lexemes when the batch is closed.
func QueueKeywordTerms(b *pgx.Batch, p KeywordTermsParams, fn func([]KeywordTerm) error) {
	b.Queue(keywordTerms, p.TenantID, p.TsConfig, p.Required, p.Query).Query(func(rows pgx.Rows) error {
		terms, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (KeywordTerm, error) {
			var t KeywordTerm
			return t, r.Scan(&t.Lexeme, &t.DF, &t.ChunkCount, &t.Readable, &t.Optional)
		})
		if err != nil {
			return err
		}
		return fn(terms)
	})
}

// compoundLexemes gives each word ($2) its lexemes as written and those of
// its alternative form ($3: a hyphenated word's joined form, a noun's other
// number; analyze.Alternates), in the order of the words ($1 text-search
// configuration).
const compoundLexemes = `SELECT tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), x.w)),
	tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), x.f))
FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x (w, f, i)
ORDER BY x.i`

// CompoundLexemes are a word's lexemes as written and those of its
// alternative form.
type CompoundLexemes struct {
	Written, Joined []string
}

// QueueCompoundLexemes queues compoundLexemes on b (words and forms
// pairwise); fn receives one CompoundLexemes per word, in order, when the
// batch is closed.
func QueueCompoundLexemes(b *pgx.Batch, tsConfig string, words, forms []string, fn func([]CompoundLexemes) error) {
	b.Queue(compoundLexemes, tsConfig, words, forms).Query(func(rows pgx.Rows) error {
		out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (CompoundLexemes, error) {
			var c CompoundLexemes
			return c, r.Scan(&c.Written, &c.Joined)
		})
		if err != nil {
			return err
		}
		return fn(out)
	})
}

// KeywordLegParams are the keyword leg's inputs.
type KeywordLegParams struct {
	TSConfig string
	TenantID uuid.UUID
	// Query is the search text (analyze.Query).
	Query string
	// K1 and B are BM25's parameters.
	K1, B float64
	// PerTerm is how many of each term's highest-impact postings set the
	// pruning threshold (speed only); N is the number of rows returned.
	PerTerm, N int
	// Filtered restricts the leg to documents matching Prefix and Metadata.
	Filtered bool
	Prefix   string
	Metadata []byte
	// Words and Forms (pairwise) are the question's nouns and their other
	// number, searched where no readable chunk has the word
	// (keywordLegForms); nil for none.
	Words, Forms []string
}

// QueueKeywordLeg queues the keyword leg on b; fn receives its rows, best
// first, with Matched set, when the batch is closed.
func QueueKeywordLeg(b *pgx.Batch, p KeywordLegParams, fn func([]LegRow) error) {
	if len(p.Words) > 0 {
		b.Queue(keywordLegForms, p.TSConfig, p.TenantID, p.Query, p.K1, p.B, p.PerTerm, p.N, p.Filtered, p.Prefix, p.Metadata, p.Words, p.Forms).
			Query(collectLegRows(fn, true))
		return
	}
	b.Queue(keywordLeg, p.TSConfig, p.TenantID, p.Query, p.K1, p.B, p.PerTerm, p.N, p.Filtered, p.Prefix, p.Metadata).
		Query(collectLegRows(fn, true))
}

// MissingTermsParams are the missing-terms probe's inputs: Words and, at the
// same index, the search text of each.
type MissingTermsParams struct {
	TSConfig      string
	TenantID      uuid.UUID
	Words, Probes []string
	// Literal marks the probes that a chunk must also contain word for
	// word (see missingTerms); nil means none.
	Literal []bool
	// Kana is, for a katakana word, the pattern the literal check matches
	// instead (KanaPattern); "" for other probes, nil for none.
	Kana []string
}

// kanaMarkChars are the characters katakana words are compared without:
// the prolonged sound mark, the middle dot and blanks (KanaCompact); and
// kanaMarks the same as an SQL literal, for the chunks' text.
const (
	kanaMarkChars = "ー・ 　"
	kanaMarks     = "'" + kanaMarkChars + "'"
)

// KanaCompact returns w without prolonged sound marks, middle dots and
// blanks: the form in which katakana words are compared (KanaPattern).
func KanaCompact(w string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(kanaMarkChars, r) {
			return -1
		}
		return r
	}, w)
}

// kanaVariantMin is the shortest katakana word (marks left out) allowed
// one kana spelt otherwise: shorter ones would match other words (アプト
// with one kana free is in スクリプト).
const kanaVariantMin = 5

// KanaPattern returns the regular expression the missing-terms probe
// matches a katakana word with: the word without prolonged sound marks,
// middle dots and blanks, and from kanaVariantMin kana on, any one of
// them free (an alternation of the variants). Katakana has no character
// special in a regular expression.
func KanaPattern(w string) string {
	rs := []rune(KanaCompact(w))
	if len(rs) < kanaVariantMin {
		return string(rs)
	}
	alts := make([]string, len(rs))
	for i := range rs {
		alts[i] = string(rs[:i]) + "." + string(rs[i+1:])
	}
	return "(" + strings.Join(alts, "|") + ")"
}

// QueueMissingTerms queues the probe on b; fn receives the words none of
// whose lexemes any chunk of the tenant has, when the batch is closed.
func QueueMissingTerms(b *pgx.Batch, p MissingTermsParams, fn func([]string) error) {
	literal := p.Literal
	if literal == nil {
		literal = make([]bool, len(p.Words))
	}
	kana := p.Kana
	if kana == nil {
		kana = make([]string, len(p.Words))
	}
	b.Queue(missingTerms, p.TSConfig, p.TenantID, p.Words, p.Probes, literal, kana).Query(func(rows pgx.Rows) error {
		words, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		return fn(words)
	})
}

// collectLegRows scans a leg statement's rows (chunk_id, value, content…,
// and matched when withMatched) and hands them to fn.
func collectLegRows(fn func([]LegRow) error, withMatched bool) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		hits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (LegRow, error) {
			var h LegRow
			dst := []any{&h.ChunkID, &h.Value, &h.DocumentID, &h.ChunkIndex, &h.StartOffset, &h.EndOffset,
				&h.HeadingPath, &h.Content, &h.SourceURI, &h.Title, &h.PageStart, &h.PageEnd, &h.DocChunks, &h.Anchor,
				&h.Sections, &h.SectionAnchors, &h.AnchorMarks}
			if withMatched {
				dst = append(dst, &h.Matched)
			}
			return h, r.Scan(dst...)
		})
		if err != nil {
			return err
		}
		return fn(hits)
	}
}
