package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"github.com/ragd-dev/ragd/internal/analyze"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// DefaultMaxBytes is the largest document accepted by default: the
// default request body limit (10 MiB), as the API delivers documents in one
// body.
const DefaultMaxBytes = config.DefaultMaxBodyBytes

// MaxMetadataBytes bounds a document's metadata JSON.
const MaxMetadataBytes = 64 << 10

// CheckMetadata returns metadata as stored (JSON), or ErrInvalidMetadata
// when it is not JSON, is over MaxMetadataBytes or nests deeper than
// store.MaxJSONDepth: what a document write refuses, checked wherever
// metadata is accepted for later writes too (ingestion jobs, manifests).
func CheckMetadata(m map[string]any) ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil || len(b) > MaxMetadataBytes {
		return nil, fmt.Errorf("%w: must be a JSON object of at most %d bytes", ErrInvalidMetadata, MaxMetadataBytes)
	}
	if store.JSONDepth(m) > store.MaxJSONDepth {
		return nil, fmt.Errorf("%w: must nest at most %d levels", ErrInvalidMetadata, store.MaxJSONDepth)
	}
	return b, nil
}

// ErrMetadataEncoding is DecodeMetadata's error for bytes that are not UTF-8.
var ErrMetadataEncoding = errors.New("metadata: not valid UTF-8 (or escapes half a UTF-16 surrogate pair)")

// DecodeMetadata decodes a JSON object of metadata (or a metadata filter)
// keeping its numbers as written (json.Number): decoded as float64, an
// integer past 2^53 (9007199254740993) came back as another one and matched
// another document's filter. A JSON null decodes to a nil map.
func DecodeMetadata(b []byte) (map[string]any, error) {
	if !utf8.Valid(b) || LoneSurrogate(b) {
		// The JSON decoder would store U+FFFD for each invalid byte and
		// each half of a surrogate pair escaped alone, silently changing
		// what the caller sent (two keys became one).
		return nil, ErrMetadataEncoding
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("metadata: data after the JSON object")
	}
	return m, nil
}

// titleControl reports a character a title may not hold: a control
// character, a line or paragraph separator, or a bidirectional embedding,
// override or isolate.
func titleControl(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}

// blankRune reports white space and the invisible format characters
// (zero-width space, joiners, marks) that print nothing.
func blankRune(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) }

// indexVersion names how chunks are indexed (analyze.Keywords: compound
// identifiers, the parts of dotted names and paths, the leading names of dotted names, URL schemes, the words of tag-like spans, of script and style tags' text and of operators, CJK bigrams); it is part of the pipeline fingerprint, with the
// embedded-text recipe, so changing either re-indexes on the next ingest.
// Besides the name it carries a digest of analyze.Keywords over a probe text
// that exercises every rule, so a change to the analysis re-indexes even if
// nobody remembers to rename it.
var indexVersion = func() string {
	const probe = "effective_io_concurrency pg_stat_activity表记录会话。PostgreSQL的连接池 GPT-4模型 v1.2版本 werkzeug.exceptions.NotFound HTTP/1.1 " +
		"~/.config/ragd/ragd.toml データベースの接続 Python3の使い方 ﾃﾞｰﾀ 「設定」 한국어를 表 -表示- น้ำชา <class 'jinja2.exceptions.TemplateSyntaxError'> a @> b >>> f() a <script> tag holds code, reject <style unclosed rss/item/psc:chapters redis://localhost:6379/0 logging.Logger.info docs.python.org <A000表示设置>"
	sum := sha256.Sum256([]byte(analyze.Keywords(probe)))
	return "keywords=compound+fused+prefixes+filenames+tags+skipped+operators+schemes+cjk-bigram/" + hex.EncodeToString(sum[:4])
}()

// Embedded-text recipes (WithEmbedText).
const (
	// EmbedHeadingContent embeds the heading path, a newline, then the content
	// (the default).
	EmbedHeadingContent = "heading+content"
	// EmbedContent embeds the chunk content alone.
	EmbedContent = "content"
)

// Pipeline ingests documents for tenants. Safe for concurrent use.
type Pipeline struct {
	pool     *pgxpool.Pool
	emb      embed.Embedder
	modelID  int16
	models   Models // nil: every tenant's documents are embedded with emb
	chunkCfg chunk.Config
	maxBytes int
	quota    Quota // of tenants without their own (WithQuota)
	log      *slog.Logger
	// embedText is the recipe name (EmbedHeadingContent or EmbedContent).
	embedText string
	// fingerprint identifies extraction, chunking and embedding: a document
	// whose content and fingerprint are both unchanged is skipped.
	fingerprint string
}

// Option configures a Pipeline.
type Option func(*Pipeline)

// Fingerprint identifies what the pipeline makes of a document: extraction
// version, chunking parameters, embedding model and dimensions, embedded-text recipe, keyword
// analysis version. A stored document with the same content and fingerprint
// is skipped on re-ingestion.
func (p *Pipeline) Fingerprint() string { return p.fingerprint }

// WithChunkConfig sets the chunking parameters (default chunk.DefaultConfig()).
func WithChunkConfig(c chunk.Config) Option { return func(p *Pipeline) { p.chunkCfg = c } }

// WithMaxBytes sets the largest accepted document in bytes.
func WithMaxBytes(n int) Option { return func(p *Pipeline) { p.maxBytes = n } }

// WithEmbedText sets the embedded-text recipe: EmbedHeadingContent (default)
// or EmbedContent. Unknown names are refused by New.
func WithEmbedText(recipe string) Option { return func(p *Pipeline) { p.embedText = recipe } }

// WithModels embeds each tenant's documents with its own models (the
// active one and, during a switch, the target) instead of the pipeline's
// embedder alone.
func WithModels(m Models) Option { return func(p *Pipeline) { p.models = m } }

// WriteModel is an embedding model a document write embeds with.
type WriteModel struct {
	ID       int16
	Embedder embed.Embedder
	// Prefix goes before each text (e5/bge/nomic-style document prefixes).
	Prefix string
	// MaxChars cuts longer texts (0: no cut) before they are embedded.
	MaxChars int
}

// Text is what m embeds for text: the prefix, then text cut to MaxChars
// at a character boundary.
func (m WriteModel) Text(text string) string {
	text = m.Prefix + text
	if m.MaxChars > 0 && len(text) > m.MaxChars {
		cut := m.MaxChars
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	return text
}

// Models gives the models a tenant's writes embed with (internal/model.Set).
type Models interface {
	// ForWrite returns the models of a tenant whose active model is active
	// and whose switch goes to target (0: the default; no switch).
	ForWrite(ctx context.Context, active, target int16) ([]WriteModel, error)
}

// errModelsChanged: the tenant's models changed (a switch started or
// flipped) between embedding and writing; the write starts over.
var errModelsChanged = errors.New("ingest: the tenant's embedding models changed during the write")

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(p *Pipeline) { p.log = l } }

// New returns a pipeline storing through pool (the application role) with
// embedder emb, whose registry id is modelID. Errors: an invalid chunk config.
func New(pool *pgxpool.Pool, emb embed.Embedder, modelID int16, opts ...Option) (*Pipeline, error) {
	p := &Pipeline{pool: pool, emb: emb, modelID: modelID, chunkCfg: chunk.DefaultConfig(), maxBytes: DefaultMaxBytes, log: slog.Default(),
		embedText: EmbedHeadingContent}
	for _, o := range opts {
		o(p)
	}
	if p.embedText != EmbedHeadingContent && p.embedText != EmbedContent {
		return nil, fmt.Errorf("ingest: unknown embedded-text recipe %q (want %s or %s)", p.embedText, EmbedHeadingContent, EmbedContent)
	}
	if err := p.chunkCfg.Validate(); err != nil {
		return nil, err
	}
	c := p.chunkCfg
	p.fingerprint = fmt.Sprintf("extract=%s;chunk=%d/%d/%d/%d/%d;embed=%s/%d;text=%s/v1;%s", extract.Version,
		c.TargetTokens, c.MaxTokens, c.MinTokens, c.OverlapTokens, c.MaxChars, emb.Model(), emb.Dims(), p.embedText, indexVersion)
	return p, nil
}

// EmbedText is the string embedded for a chunk: its heading path, a newline,
// and its content. The local model reads only its first 128 tokens, so the
// heading path (which names the page and section) comes first. Measured on
// the PostgreSQL manual set (docs/EVAL.md): vector nDCG@10 0.332 against 0.309
// for the content alone.
func EmbedText(headingPath, content string) string {
	if headingPath == "" {
		return content
	}
	return headingPath + "\n" + content
}

// Prepared is a document extracted, chunked and ready to store.
type prepared struct {
	doc    *extract.Document
	chunks []chunk.Chunk
	title  string
}

func validURI(uri string) bool {
	if uri == "" || len(uri) > 2048 || !utf8.ValidString(uri) || strings.TrimFunc(uri, blankRune) == "" {
		return false
	}
	if scheme, _, ok := strings.Cut(uri, ":"); ok && scriptSchemes[strings.ToLower(strings.TrimSpace(scheme))] {
		// Clients render a citation's source_uri as a link: one that
		// runs code when followed is no document's address.
		return false
	}
	return !strings.ContainsFunc(uri, unicode.IsControl)
}

// scriptSchemes are the URI schemes whose links run code or carry their
// content inline.
var scriptSchemes = map[string]bool{"javascript": true, "vbscript": true, "data": true}

// Upsert stores d for tenant t: unchanged content (same sha256 and pipeline)
// is skipped without embedding; otherwise the document is extracted, chunked,
// embedded (chunk texts already embedded in this tenant under the same model
// come from the cache) and written in one transaction that replaces every
// previous chunk and embedding atomically.
//
// An update changes only what it names: a nil Metadata keeps the stored
// metadata (a new document gets {}), an empty non-nil one clears it; an
// empty Title keeps a title an earlier write named, and otherwise the title
// is derived from the content (so it follows the content). Identical
// content with nothing else to change is StatusUnchanged.
//
// Concurrent writes to one source_uri serialise on the document row, and
// each stores one request whole (content, chunks, title, metadata): the
// same-content path (metadata only) locks the row and compares the stored
// content hash in the transaction that updates it (a compare-and-set; when
// another write changed the content meanwhile, this one becomes a full
// write of its own content), and the full path replaces the row, its chunks
// and embeddings in one transaction under the same row lock. A new title
// takes the full path: it roots the heading paths of an untitled
// document's chunks, which are embedded with them (unchanged chunk texts
// still come from the embedding cache). The full path computes the title
// before it takes the lock, so its upsert is a compare-and-set on the
// stored title too; when a concurrent write named another title meanwhile,
// the write starts over (at most maxAttempts times, then store.ErrConflict).
//
// The content type comes from the bytes (extract.Detect) with d.ContentType
// as the declaration; text is transcoded to UTF-8 (extract.ToUTF8) unless
// d.FromText says it already is.
//
// Errors: ErrInvalidSourceURI, ErrTooLarge, ErrInvalidMetadata; extract's
// ErrUnsupportedType, ErrTypeMismatch, ErrInvalidUTF8, ErrBinary, ErrEmpty,
// ErrNoTextLayer, ErrUnreadable (wrapped); embedder and store errors
// (store.ErrConflict as above). On error nothing is stored.
func (p *Pipeline) Upsert(ctx context.Context, t tenant.Tenant, d Document) (Outcome, error) {
	out := Outcome{SourceURI: d.SourceURI}
	if !validURI(d.SourceURI) {
		return out, fmt.Errorf("%w: must be 1-2048 bytes of UTF-8 without control characters, not only blanks, and not a javascript:, vbscript: or data: URI", ErrInvalidSourceURI)
	}
	if len(d.Content) > p.maxBytes {
		return out, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(d.Content), p.maxBytes)
	}
	var meta []byte // nil: keep what is stored
	if d.Metadata != nil {
		var err error
		if meta, err = CheckMetadata(d.Metadata); err != nil {
			return out, err
		}
	}
	if d.SetAccess {
		access, err := auth.NormalizeAccess(d.Access)
		if err != nil {
			return out, fmt.Errorf("%w: %w", ErrInvalidAccess, err)
		}
		d.Access = access
	}
	if d.Title != "" && strings.TrimFunc(d.Title, blankRune) == "" {
		// Blanks alone (spaces, zero-width ones included) title nothing.
		return out, fmt.Errorf("%w: a title must not be only blanks", ErrInvalidTitle)
	}
	// The blanks around a title are no part of it: a title read from a
	// file (curl -F 'title=<t.txt') ends with the file's line break.
	d.Title = strings.TrimFunc(d.Title, unicode.IsSpace)
	if len(d.Title) > 1000 || !utf8.ValidString(d.Title) || strings.ContainsFunc(d.Title, titleControl) {
		// A control character is no part of a title, and printed it acts
		// on the terminal of whoever lists the documents; a line break
		// (U+0085, C1's next line, and U+2028 and U+2029 too) splits the
		// one line a title is; a bidirectional override shows a title as
		// another ("invoice \u202egpj.exe" reads "invoice exe.jpg").
		return out, fmt.Errorf("%w: a title is one line of valid UTF-8, at most 1000 bytes, without control characters (line breaks, tabs, NUL, C1 controls and bidirectional overrides included)", ErrInvalidTitle)
	}
	if !d.FromText && GzipStream(d.Content) {
		// A gzipped file sent whole (an upload or a job's file of
		// "manual.pdf.gz", as Debian ships documentation) is read
		// decompressed, as `ragd ingest` reads it from disk: gzip is how
		// it travelled, and a declared type (the upload's file name
		// without ".gz" gives one) names what it holds.
		data, err := gunzip(bytes.NewReader(d.Content), baseName(d.SourceURI), p.maxBytes)
		if err != nil {
			return out, fmt.Errorf("ingest %s: %w", d.SourceURI, err)
		}
		d.Content = data
		if mt, _, _ := mime.ParseMediaType(d.ContentType); mt == "application/gzip" || mt == "application/x-gzip" {
			d.ContentType = ""
		}
	}
	ct, err := readAs(d)
	if err != nil {
		return out, fmt.Errorf("ingest %s: %w", d.SourceURI, err)
	}
	sum := sha256.Sum256(d.Content)
	for attempt := 1; ; attempt++ {
		out, err := p.upsert(ctx, t, d, ct, sum[:], meta)
		if !errors.Is(err, errTitleMoved) && !errors.Is(err, errModelsChanged) {
			return out, err
		}
		if attempt == maxAttempts {
			return Outcome{SourceURI: d.SourceURI}, fmt.Errorf("ingest %s: %w: its title or its tenant's embedding models kept changing under concurrent writes; retry", d.SourceURI, store.ErrConflict)
		}
	}
}

// tenantGone translates a missing tenant row (the tenant was deleted while
// the write was under way: `ragd tenant delete` disables, then purges) into
// store.ErrReferenceGone, a 409 for the writer, not an internal error.
func tenantGone(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: the tenant was deleted", store.ErrReferenceGone)
	}
	return err
}

// errTitleMoved: the stored title changed between the read a write's title
// was computed from and the write, or the document whose title or type the
// write kept was deleted meanwhile; the write starts over.
var errTitleMoved = errors.New("ingest: the stored document changed meanwhile")

// maxAttempts bounds how often Upsert starts over after errTitleMoved, which
// takes a concurrent write naming a new title in that window each time.
const maxAttempts = 5

// upsert is one attempt of Upsert for content of type ct with hash sum and
// metadata JSON meta (nil: keep). Errors: errTitleMoved, or Upsert's.
func (p *Pipeline) upsert(ctx context.Context, t tenant.Tenant, d Document, ct string, sum []byte, meta []byte) (Outcome, error) {
	out := Outcome{SourceURI: d.SourceURI}
	q := store.New()

	// 1. Same content and title already stored? Then only the metadata can
	// change: compare and update under the row lock (a compare-and-set on
	// the content hash), no extraction, no embedding.
	same := false
	keptType := false      // ct is the stored document's type, kept for a write that named none
	var storedTitle string // the stored title when a write named it
	storedGiven := false
	err := store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
		row, err := q.LockDocumentBySourceURI(ctx, tx, store.LockDocumentBySourceURIParams{TenantID: t.ID, SourceUri: d.SourceURI})
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		storedTitle, storedGiven = row.Title, row.TitleGiven
		if d.ContentType == "" && extract.IsText(row.ContentType) &&
			(string(row.ContentSha) == string(sum) && extract.IsText(ct) || ct == extract.TypePlain && row.ContentType == extract.TypeMarkdown) {
			// A write that names no type keeps the text type the document
			// was read as (an update changes only what it names): a
			// Markdown document at a source_uri without an extension,
			// re-PUT with new metadata only, or with a typo fixed, was
			// re-read as plain text, which is only what nothing in the
			// bytes says otherwise (Markdown has no signature; HTML
			// does, so plain new content is no longer HTML). New content whose bytes or source_uri
			// say something (an HTML page replacing a text file is HTML)
			// is read as that; binary formats always are.
			ct, keptType = row.ContentType, true
		}
		if string(row.ContentSha) != string(sum) || row.Pipeline != p.fingerprint || row.ContentType != ct {
			return nil // a full write; the lock is released, the upsert takes it again
		}
		if d.Title != "" && d.Title != row.Title {
			// The title roots the heading path of an untitled document's
			// chunks, which are embedded with it: a full write re-chunks.
			return nil
		}
		same = true
		out.DocumentID, out.Status, out.Chunks = row.ID, StatusUnchanged, int(row.ChunkCount)
		// Fields a write may leave out (metadata; an access list takes the
		// same rule): absent keeps, present replaces, compared under the lock.
		newMeta := row.Metadata
		if meta != nil {
			newMeta = meta
		}
		if d.SetAccess {
			changed, err := store.SetDocumentAccess(ctx, tx, t.ID, row.ID, d.Access)
			if err != nil {
				return err
			}
			if changed {
				out.Status = StatusUpdated
			}
		}
		given := row.TitleGiven || d.Title != ""
		writer := row.FromFiles.Valid && row.FromFiles.Bool == d.FromFiles
		if !sameJSON(row.Metadata, newMeta) {
			out.Status = StatusUpdated
		} else if given == row.TitleGiven && writer {
			return nil
		}
		// (A derived title now named with the same text is recorded as named
		// but is no visible change: still "unchanged"; so is another
		// writer, which only decides what a prune may delete.)
		return q.UpdateDocumentDetails(ctx, tx, store.UpdateDocumentDetailsParams{TenantID: t.ID, ID: row.ID, TitleGiven: given, Metadata: newMeta,
			FromFiles: pgtype.Bool{Bool: d.FromFiles, Valid: true}, Touched: !sameJSON(row.Metadata, newMeta) || given != row.TitleGiven})
	})
	if err != nil {
		return Outcome{SourceURI: d.SourceURI}, fmt.Errorf("ingest %s: store: %w", d.SourceURI, err)
	}
	if same {
		return out, nil
	}
	quota := QuotaOf(t, p.quota)
	if quota.set() {
		if err := p.quotaBefore(ctx, t, quota, d.SourceURI); err != nil {
			return out, err
		}
	}
	content := d.Content
	if !d.FromText {
		if content, err = extract.ToUTF8(d.Content, ct, d.ContentType); err != nil {
			return out, fmt.Errorf("ingest %s: %w", d.SourceURI, err)
		}
	}

	// 2. Extract and chunk (CPU only).
	doc, err := extract.ExtractContext(ctx, ct, content)
	if err != nil {
		return out, fmt.Errorf("ingest %s: %w", d.SourceURI, err)
	}
	if len(doc.Text) > p.maxBytes {
		// The limit holds for what a file holds, not only for its bytes: a
		// 212 KB DOCX of repeated paragraphs was 60 MB of text in 56,527
		// chunks.
		return out, fmt.Errorf("%w: its text is %d bytes, the limit is %d", ErrTooLarge, len(doc.Text), p.maxBytes)
	}
	if err := reached(ctx, StageExtracted); err != nil {
		return out, err
	}
	// The title: the one this write names, else the one an earlier write
	// named (checked again under the row lock), else the content's.
	title, given := d.Title, d.Title != ""
	borrowed := false // the title is the stored document's, named by an earlier write
	if !given && storedGiven {
		title, given, borrowed = storedTitle, true, true
	}
	if title == "" {
		title = doc.Title
	}
	if title == "" {
		// In the form extracted text is in (a macOS file name's accents
		// are combining characters): the title is indexed in the heading
		// path, and questions are normalised the same way.
		// A gzipped file's name without ".gz" is the name of what it
		// holds ("test.md", not "test.md.gz"): a file named so that was
		// read is one ragd decompressed.
		name := baseName(d.SourceURI)
		if len(name) > 3 && strings.EqualFold(name[len(name)-3:], ".gz") {
			name = name[:len(name)-3]
		}
		title = analyze.Normalize(name)
	}
	if doc.Title == "" && title != "" {
		// Plain text and untitled documents: the title still roots the heading path.
		doc.Title = analyze.Normalize(title)
	}
	chunks, err := chunk.Split(doc, p.chunkCfg)
	if err != nil {
		return out, fmt.Errorf("ingest %s: %w", d.SourceURI, err)
	}
	if d.MaxChunks > 0 && len(chunks) > d.MaxChunks {
		return out, fmt.Errorf("%w: %d chunks, more than a synchronous write embeds within its deadline (%d); send it as an ingestion job (POST /v1/ingest/jobs) or with ragd ingest",
			ErrTooLarge, len(chunks), d.MaxChunks)
	}
	if err := reached(ctx, StageChunked); err != nil {
		return out, err
	}

	// 3. Embed, through the tenant's cache of (model, text sha256).
	texts := make([]string, len(chunks))
	shas := make([][]byte, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Content
		if p.embedText == EmbedHeadingContent {
			texts[i] = EmbedText(c.HeadingPath, c.Content)
		}
		s := sha256.Sum256([]byte(texts[i]))
		shas[i] = s[:]
	}
	// The tenant's models now (a switch may have started since t was
	// loaded); the write checks them again under its lock.
	models := []WriteModel{{ID: p.modelID, Embedder: p.emb}}
	if p.models != nil {
		var cur store.LockTenantModelsRow
		err := store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
			var err error
			cur, err = q.LockTenantModels(ctx, tx, t.ID)
			return tenantGone(err)
		})
		if err != nil {
			return out, err
		}
		if models, err = p.models.ForWrite(ctx, cur.EmbeddingModelID, cur.TargetModelID); err != nil {
			return out, fmt.Errorf("ingest %s: %w: %w", d.SourceURI, ErrEmbedding, err)
		}
	}
	vecs := map[int16][]pgvector.Vector{}
	for _, m := range models {
		v, n, err := p.embedWith(ctx, t, m, texts, shas)
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			return out, fmt.Errorf("ingest %s: %w", d.SourceURI, err)
		}
		vecs[m.ID] = v
		out.Embedded += n
	}
	if err := reached(ctx, StageEmbedded); err != nil {
		return out, err
	}

	// 4. One transaction: the document row (locks it); the new embeddings,
	// before their chunks (the foreign key is deferred to COMMIT); then the
	// chunks replaced, whose triggers write the postings and then take the
	// tenant_stats row lock that serialises the tenant's writers until COMMIT
	// (migration 00008). So a large tenant's HNSW insertions and every
	// writer's postings run in parallel; only the shared statistics queue.
	cp := store.InsertChunksParams{TenantID: t.ID, TsConfig: t.TSConfig}
	var ep []store.InsertEmbeddingsParams
	for id, v := range vecs {
		ep = append(ep, store.InsertEmbeddingsParams{TenantID: t.ID, ModelID: id, TextShas: shas, Embeddings: v})
	}
	for _, c := range chunks {
		id := uuid.Must(uuid.NewV7())
		cp.Ids = append(cp.Ids, id)
		cp.ChunkIndexes = append(cp.ChunkIndexes, int32(c.Index))
		cp.HeadingPaths = append(cp.HeadingPaths, c.HeadingPath)
		// One text per chunk, the paths joined by "\n" (no path holds one:
		// chunk.pathElem collapses white space); the statement splits it.
		cp.Sections = append(cp.Sections, strings.Join(c.Sections, "\n"))
		cp.Contents = append(cp.Contents, c.Content)
		cp.TokenCounts = append(cp.TokenCounts, int32(c.Tokens))
		cp.StartOffsets = append(cp.StartOffsets, int32(c.Start))
		cp.EndOffsets = append(cp.EndOffsets, int32(c.End))
		cp.PageStarts = append(cp.PageStarts, int32(c.PageStart))
		cp.PageEnds = append(cp.PageEnds, int32(c.PageEnd))
		cp.Anchors = append(cp.Anchors, c.Anchor)
		// One text per chunk, as Sections (an anchor holds no newline:
		// extract.validAnchor).
		cp.SectionAnchors = append(cp.SectionAnchors, strings.Join(c.SectionAnchors, "\n"))
		// Each mark "<offset>\t<anchor>" (an anchor holds no control
		// character), one text per chunk as above.
		marks := make([]string, len(c.AnchorMarks))
		for i, m := range c.AnchorMarks {
			marks[i] = strconv.Itoa(m.At) + "\t" + m.Anchor
		}
		cp.AnchorMarks = append(cp.AnchorMarks, strings.Join(marks, "\n"))
		cp.Keywords = append(cp.Keywords, analyze.Keywords(c.HeadingPath+"\n"+c.Content))
		for i := range ep {
			ep[i].ChunkIds = append(ep[i].ChunkIds, id)
		}
	}
	err = store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
		if err := q.UseAutoPlans(ctx, tx); err != nil {
			return err
		}
		if p.models != nil {
			// Locked against a flip (FOR SHARE): a model the write did not
			// embed for means a switch started or flipped since.
			row, err := q.LockTenantModels(ctx, tx, t.ID)
			if err != nil {
				return tenantGone(err)
			}
			need, err := p.models.ForWrite(ctx, row.EmbeddingModelID, row.TargetModelID)
			if err != nil {
				return err
			}
			for _, m := range need {
				if _, ok := vecs[m.ID]; !ok {
					return errModelsChanged
				}
			}
		}
		// Written meanwhile with this very content (the same new file sent
		// twice at once): step 1 of a new attempt, under the lock, finds it
		// unchanged, instead of this write replacing its chunks with
		// copies and reporting an update nobody made.
		absent := false
		switch cur, err := q.LockDocumentBySourceURI(ctx, tx, store.LockDocumentBySourceURIParams{TenantID: t.ID, SourceUri: d.SourceURI}); {
		case errors.Is(err, store.ErrNotFound):
			absent = true
		case err != nil:
			return err
		case string(cur.ContentSha) == string(sum) && cur.Pipeline == p.fingerprint && cur.ContentType == ct &&
			(d.Title == "" || d.Title == cur.Title):
			return errTitleMoved
		}
		doc, err := q.UpsertDocument(ctx, tx, store.UpsertDocumentParams{TenantID: t.ID, SourceUri: d.SourceURI, Title: title, TitleGiven: given,
			TitleNamed: d.Title != "", ContentType: ct, ContentSha: sum, Pipeline: p.fingerprint, Metadata: meta, Body: doc.Text,
			CodeSpans: codeSpans(doc), ChunkCount: int32(len(chunks)), FromFiles: pgtype.Bool{Bool: d.FromFiles, Valid: true}})
		if errors.Is(err, store.ErrNotFound) {
			return errTitleMoved // the compare-and-set on the title failed
		}
		if err != nil {
			return err
		}
		if absent && !doc.Inserted {
			// Inserted by a concurrent write after the lock found nothing:
			// a new attempt compares with it as above.
			return errTitleMoved
		}
		if (borrowed || keptType) && doc.Inserted {
			// The document whose named title or type this write kept was
			// deleted meanwhile: they are no longer there to keep.
			return errTitleMoved
		}
		out.DocumentID = doc.ID
		out.Status = StatusAdded
		if !doc.Inserted {
			out.Status = StatusUpdated
		}
		if err := store.DeferEmbeddingChunkFK(ctx, tx); err != nil {
			return err
		}
		for _, e := range ep {
			if _, err := q.InsertEmbeddings(ctx, tx, e); err != nil {
				return err
			}
		}
		removed, err := q.DeleteChunksByDocument(ctx, tx, store.DeleteChunksByDocumentParams{TenantID: t.ID, DocumentID: doc.ID})
		if err != nil {
			return err
		}
		if d.SetAccess {
			// Between the old chunks' delete and the new chunks' insert, so
			// that no chunk is rewritten: the new ones take the document's
			// list (and give it to their embeddings) as they are inserted.
			if _, err := store.SetDocumentAccess(ctx, tx, t.ID, doc.ID, d.Access); err != nil {
				return err
			}
		}
		cp.DocumentID = doc.ID
		if _, err := q.InsertChunks(ctx, tx, cp); err != nil {
			return err
		}
		if !quota.set() {
			return nil
		}
		// After the chunks: their trigger holds the lock that serialises
		// the tenant's writers, so this check is race-free (quotaAfter).
		return quotaAfter(ctx, tx, t, quota, d.SourceURI, doc.Inserted, int64(len(chunks)), removed)
	})
	if errors.Is(err, ErrQuotaExceeded) {
		return Outcome{SourceURI: d.SourceURI}, err
	}
	if errors.Is(err, store.ErrPermissionDenied) {
		// The upsert met a document under this source_uri that the
		// writer's principals cannot read (row-level security refuses to
		// update it).
		return Outcome{SourceURI: d.SourceURI}, fmt.Errorf("ingest %s: %w", d.SourceURI, ErrHidden)
	}
	if err != nil {
		return Outcome{SourceURI: d.SourceURI}, fmt.Errorf("ingest %s: store: %w", d.SourceURI, err)
	}
	out.Chunks = len(chunks)
	return out, nil
}

// setAccess sets document id's access list in a transaction of its own and
// reports whether it changed.
func (p *Pipeline) setAccess(ctx context.Context, t tenant.Tenant, id uuid.UUID, access []string) (bool, error) {
	var changed bool
	err := store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
		var err error
		changed, err = store.SetDocumentAccess(ctx, tx, t.ID, id, access)
		return err
	})
	return changed, err
}

// SetAccess sets the access list of the tenant's document id (an empty
// list: everyone in the tenant) and nothing else, and returns whether it
// changed. Errors: ErrInvalidAccess; ErrNotFound when the caller cannot
// read the document (absent, another tenant's, or hidden from it).
func (p *Pipeline) SetAccess(ctx context.Context, t tenant.Tenant, id uuid.UUID, access []string) (bool, error) {
	access, err := auth.NormalizeAccess(access)
	if err != nil {
		return false, fmt.Errorf("%w: %w", ErrInvalidAccess, err)
	}
	changed, err := p.setAccess(ctx, t, id, access)
	if errors.Is(err, store.ErrNotFound) {
		return false, ErrNotFound
	}
	return changed, err
}

// SetMetadata replaces the metadata of the tenant's document id (a JSON
// object; {} clears it) and nothing else — content, chunks, title and
// access are kept — and returns whether it changed. The document's row is
// locked first, so it serialises with a concurrent write of the document.
// Errors: ErrInvalidMetadata (CheckMetadata); ErrNotFound when the caller
// cannot read the document (absent, another tenant's, or hidden from it).
func (p *Pipeline) SetMetadata(ctx context.Context, t tenant.Tenant, id uuid.UUID, metadata map[string]any) (bool, error) {
	if metadata == nil {
		metadata = map[string]any{}
	}
	b, err := CheckMetadata(metadata)
	if err != nil {
		return false, err
	}
	var changed bool
	err = store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
		q := store.New()
		if _, err := q.LockDocumentMetadata(ctx, tx, store.LockDocumentMetadataParams{TenantID: t.ID, ID: id}); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return ErrNotFound
			}
			return err
		}
		n, err := q.UpdateDocumentMetadata(ctx, tx, store.UpdateDocumentMetadataParams{Metadata: b, TenantID: t.ID, ID: id})
		changed = n == 1
		return err
	})
	return changed, err
}

// embedWith returns m's vector of each text (texts[i], whose sha256 is
// shas[i]): from the tenant's cache of (model, text sha256), the others
// embedded, each distinct text once. It returns how many were embedded.
func (p *Pipeline) embedWith(ctx context.Context, t tenant.Tenant, m WriteModel, texts []string, shas [][]byte) ([]pgvector.Vector, int, error) {
	vecs := make([]pgvector.Vector, len(texts))
	cached := map[string]pgvector.Vector{}
	err := store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
		rows, err := store.New().CachedEmbeddings(ctx, tx, store.CachedEmbeddingsParams{TenantID: t.ID, ModelID: m.ID, TextShas: shas})
		for _, r := range rows {
			cached[string(r.TextSha)] = r.Embedding
		}
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	// Texts not in the cache, each once (a document may repeat a chunk text).
	var missTexts []string
	missAt := map[string]int{}
	for i := range texts {
		if _, ok := cached[string(shas[i])]; ok {
			continue
		}
		if _, ok := missAt[string(shas[i])]; !ok {
			missAt[string(shas[i])] = len(missTexts)
			missTexts = append(missTexts, m.Text(texts[i]))
		}
	}
	var fresh [][]float32
	if len(missTexts) > 0 {
		if fresh, err = m.Embedder.Embed(ctx, missTexts); err != nil {
			return nil, 0, fmt.Errorf("%w: %w", ErrEmbedding, err)
		}
		if len(fresh) != len(missTexts) {
			return nil, 0, fmt.Errorf("embed: %d vectors for %d texts", len(fresh), len(missTexts))
		}
	}
	for i := range texts {
		if v, ok := cached[string(shas[i])]; ok {
			vecs[i] = v
		} else {
			vecs[i] = pgvector.NewVector(fresh[missAt[string(shas[i])]])
		}
	}
	return vecs, len(missTexts), nil
}

// Delete removes the tenant's document id with its chunks, embeddings and
// keyword statistics. Errors: ErrNotFound (also for another tenant's id).
func (p *Pipeline) Delete(ctx context.Context, t tenant.Tenant, id uuid.UUID) (Outcome, error) {
	return p.deleteOne(ctx, t, func(q *store.Queries, tx pgx.Tx) (uuid.UUID, string, error) {
		row, err := q.DeleteDocument(ctx, tx, store.DeleteDocumentParams{TenantID: t.ID, ID: id})
		return row.ID, row.SourceUri, err
	})
}

// DeleteBySourceURI removes the tenant's document with that source_uri.
// Errors: ErrNotFound.
func (p *Pipeline) DeleteBySourceURI(ctx context.Context, t tenant.Tenant, uri string) (Outcome, error) {
	return p.deleteOne(ctx, t, func(q *store.Queries, tx pgx.Tx) (uuid.UUID, string, error) {
		row, err := q.DeleteDocumentBySourceURI(ctx, tx, store.DeleteDocumentBySourceURIParams{TenantID: t.ID, SourceUri: uri})
		return row.ID, row.SourceUri, err
	})
}

// deleteOne runs one document delete in a tenant transaction; no row →
// ErrNotFound.
func (p *Pipeline) deleteOne(ctx context.Context, t tenant.Tenant, del func(*store.Queries, pgx.Tx) (uuid.UUID, string, error)) (Outcome, error) {
	var out Outcome
	err := store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
		id, uri, err := del(store.New(), tx)
		if errors.Is(err, store.ErrNotFound) {
			return ErrNotFound
		}
		out = Outcome{DocumentID: id, SourceURI: uri, Status: "deleted"}
		return err
	})
	return out, err
}

// GzipStream reports content that is a gzip stream (its magic number and
// compression method, deflate): no document ragd reads starts so.
func GzipStream(content []byte) bool {
	return len(content) >= 3 && content[0] == 0x1f && content[1] == 0x8b && content[2] == 8
}

// readAs decides the type d's content is read as (extract.Detect). Content
// that came as a text field (FromText) must be text: a declared non-text
// type is ErrUnsupportedType, binary bytes are ErrBinary.
func readAs(d Document) (string, error) {
	if !d.FromText {
		return extract.Detect(d.Content, d.ContentType, d.SourceURI)
	}
	if d.ContentType != "" {
		ct, err := extract.CanonicalType(d.ContentType)
		if err != nil {
			return "", err
		}
		if !extract.IsText(ct) {
			return "", fmt.Errorf("%w: %s cannot be sent as text; upload the file instead", extract.ErrUnsupportedType, ct)
		}
	}
	ct, err := extract.Detect(d.Content, d.ContentType, d.SourceURI)
	switch {
	case err != nil:
		return "", fmt.Errorf("%w: binary content in a text field; upload the file instead", extract.ErrBinary)
	case !extract.IsText(ct):
		return "", fmt.Errorf("%w: %s content in a text field; upload the file instead", extract.ErrBinary, ct)
	}
	return ct, nil
}

// baseName is the last path segment of a URI, for untitled documents.
func baseName(uri string) string {
	uri = strings.TrimRight(uri, "/")
	if i := strings.LastIndexAny(uri, "/\\"); i >= 0 {
		uri = uri[i+1:]
	}
	return uri
}

// ContentSHA returns the hex sha256 of content, as stored for documents.
func ContentSHA(content []byte) string {
	s := sha256.Sum256(content)
	return hex.EncodeToString(s[:])
}

// Writer says what wrote a stored document, as a prune sees it.
type Writer int

const (
	// WriterUnknown: stored before ragd recorded writers.
	WriterUnknown Writer = iota
	// WriterFiles: a `ragd ingest` run read it from a file (Document.FromFiles).
	WriterFiles
	// WriterOther: the API, an ingestion job, a dataset the CLI loaded.
	WriterOther
)

// ListSourceURIs returns the tenant's source_uris that start with prefix,
// each with its document's writer.
func (p *Pipeline) ListSourceURIs(ctx context.Context, t tenant.Tenant, prefix string) (map[string]Writer, error) {
	uris := map[string]Writer{}
	err := store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
		rows, err := store.New().ListSourceURIs(ctx, tx, store.ListSourceURIsParams{TenantID: t.ID, Prefix: prefix})
		for _, r := range rows {
			uris[r.SourceUri] = writerOf(r.FromFiles)
		}
		return err
	})
	return uris, err
}

func writerOf(fromFiles pgtype.Bool) Writer {
	switch {
	case !fromFiles.Valid:
		return WriterUnknown
	case fromFiles.Bool:
		return WriterFiles
	}
	return WriterOther
}

// pruneOne deletes the document at uri if a `ragd ingest` run wrote it
// (or, with unknown, if nobody recorded who did), checked in the delete:
// ErrNotFound when there is no such document (any more).
func (p *Pipeline) pruneOne(ctx context.Context, t tenant.Tenant, uri string, unknown bool) error {
	_, err := p.deleteOne(ctx, t, func(q *store.Queries, tx pgx.Tx) (uuid.UUID, string, error) {
		row, err := q.PruneDocument(ctx, tx, store.PruneDocumentParams{TenantID: t.ID, SourceUri: uri, Unknown: unknown})
		return row.ID, row.SourceUri, err
	})
	return err
}

// Twins says how many of the tenant's documents under prefix have the same
// content as a document outside it, of how many under it, with an
// example of each side: a corpus ingested again under another base URI
// (or without one, under file: URIs) is twins all through.
type Twins struct {
	Twins, Under   int
	Example, Other string
}

// TwinsOutside counts the documents under prefix whose content a document
// outside it has too (Twins).
func (p *Pipeline) TwinsOutside(ctx context.Context, t tenant.Tenant, prefix string) (Twins, error) {
	var out Twins
	err := store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
		r, err := store.New().TwinsOutsidePrefix(ctx, tx, store.TwinsOutsidePrefixParams{TenantID: t.ID, Prefix: prefix})
		out = Twins{Twins: int(r.Twins), Under: int(r.Under), Example: r.Example, Other: r.Other}
		return err
	})
	return out, err
}

// sameJSON reports whether two JSON texts hold equal values (jsonb output
// and encoding/json differ in spacing and key order).
func sameJSON(a, b []byte) bool {
	x, errX := exactValue(a)
	y, errY := exactValue(b)
	return errX == nil && errY == nil && reflect.DeepEqual(x, y)
}

// exactNumber is a JSON number's exact value, a type apart from strings.
type exactNumber string

// canonicalNumber writes a JSON number as sign, significant digits and
// exponent ("1e3", "1000" and "1000.0" are all "1e3"), in time linear in
// its text: as an exact fraction (big.Rat), "1e999999" built a
// million-digit integer, and 64 KiB of such numbers held a write for
// minutes.
func canonicalNumber(n string) exactNumber {
	sign := ""
	if strings.HasPrefix(n, "-") {
		sign, n = "-", n[1:]
	}
	mant, expText, _ := strings.Cut(strings.ToLower(n), "e")
	exp, err := strconv.ParseInt(strings.TrimPrefix(expText, "+"), 10, 64)
	if expText == "" {
		exp, err = 0, nil
	}
	if err != nil || exp > 1<<40 || exp < -(1<<40) {
		return exactNumber(sign + n) // beyond any exponent jsonb stores: compared as written
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	for strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		exp++
	}
	if digits == "" {
		return "0"
	}
	return exactNumber(sign + digits + "e" + strconv.FormatInt(exp, 10))
}

// exactValue decodes JSON with every number as its exact value
// (canonicalNumber): compared as float64, 9007199254740993 equalled …992
// and a changed metadata number was reported unchanged and never stored,
// while 1e3 and 1000 (jsonb's output of it) are the same number.
func exactValue(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	var norm func(any) any
	norm = func(v any) any {
		switch x := v.(type) {
		case json.Number:
			return canonicalNumber(string(x))
		case map[string]any:
			for k, e := range x {
				x[k] = norm(e)
			}
		case []any:
			for i, e := range x {
				x[i] = norm(e)
			}
		}
		return v
	}
	return norm(v), nil
}

// codeSpans lists doc's code blocks as start, end byte pairs of its text,
// in order; empty, not nil, for a document without code (stored as known:
// none, where NULL means not recorded).
func codeSpans(doc *extract.Document) []int32 {
	out := []int32{}
	for _, b := range doc.Blocks {
		if b.Kind == extract.KindCode {
			out = append(out, int32(b.Start), int32(b.End))
		}
	}
	return out
}
