package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// UpsertDocumentRequest is the body of PUT /v1/documents.
type UpsertDocumentRequest struct {
	SourceURI   string         `json:"source_uri" minLength:"1" maxLength:"2048" doc:"The document's stable identifier within the tenant, e.g. its URL or path. Writing the same source_uri again updates the document; concurrent writes to one source_uri are serialised and each stores one request whole." example:"https://docs.example.com/install.md"`
	Title       string         `json:"title,omitempty" maxLength:"1000" doc:"Title. A title named here is kept by later writes that name none, even when their content changes. Absent or empty: the title an earlier write named, else the one in the content (HTML <title>, Markdown front matter or first heading), else the last path segment of source_uri."`
	Content     string         `json:"content" minLength:"1" doc:"The document text. The request body must be valid UTF-8 (else 422); binary content such as a PDF's bytes is refused with 415 (upload files with POST /v1/documents/upload)." example:"# Install\n\nRun make setup."`
	ContentType string         `json:"content_type,omitempty" maxLength:"100" doc:"markdown, html or text, or a MIME type (text/markdown, text/x-markdown, text/html, application/xhtml+xml, text/plain); a charset parameter is ignored (the content is already Unicode). Default: from source_uri's extension (.md, .html, .txt), else text/html when the content starts like HTML, else the type of the stored document when it is Markdown (an update changes only what it names), else text/plain." example:"markdown"`
	Metadata    map[string]any `json:"metadata,omitempty" doc:"A JSON object stored with the document (at most 64 KiB); search can filter on it by containment. Absent or null keeps the stored metadata (a new document gets {}); an object replaces it; {} clears it."`
	Access      *[]string      `json:"access,omitempty" maxItems:"100" doc:"Who may read the document: principals user:<subject> and group:<name> (from the token's sub and groups claims); [] = everyone in the tenant. Absent: a new document is tenant-wide and a replaced one keeps its list. Below the admin role the list must be empty or name one of your own principals." example:"[\"group:hr\"]"`
}

// UpsertDocumentInput is the input of PUT /v1/documents.
type UpsertDocumentInput struct {
	Body UpsertDocumentRequest
}

// DocumentWrite is the outcome of a document write.
type DocumentWrite struct {
	ID        uuid.UUID `json:"id" doc:"Document id."`
	SourceURI string    `json:"source_uri"`
	Status    string    `json:"status" enum:"added,updated,unchanged,deleted" doc:"added: new source_uri; updated: content, pipeline, title or metadata changed; unchanged: identical content and nothing else to change, nothing was re-embedded; deleted."`
	Chunks    int       `json:"chunks" doc:"Number of chunks the document has now (0 after a delete)."`
}

// DocumentWriteOutput is the response of a document write.
type DocumentWriteOutput struct {
	Body DocumentWrite
}

// UploadForm is the multipart form of POST /v1/documents/upload.
type UploadForm struct {
	File        huma.FormFile `form:"file" contentType:"text/markdown,text/html,text/plain,application/pdf,application/octet-stream" required:"true" doc:"The document. Its type is the part's Content-Type when that is specific (text/markdown, text/html, application/pdf, …), else the file extension (.md, .markdown, .html, .htm, .txt, .text), else text/plain when declared so, else what the bytes are (PDF and DOCX by their signature, HTML by its start, else plain text). Binary bytes are never read as text: declared as text they get 415, as do formats ragd cannot read. Text in another charset is transcoded to UTF-8 from its byte-order mark, the part's charset parameter or an HTML <meta charset>; text that is none of these and not UTF-8 gets 422."`
	SourceURI   string        `form:"source_uri" required:"false" maxLength:"2048" doc:"The document's stable identifier; default: the file name."`
	Title       string        `form:"title" required:"false" maxLength:"1000" doc:"Title, kept by later writes that name none; default: the title an earlier write named, else the one in the content."`
	ContentType string        `form:"content_type" required:"false" maxLength:"100" doc:"Overrides the detected content type (same values as content_type of PUT /v1/documents)."`
	Metadata    string        `form:"metadata" required:"false" maxLength:"65536" doc:"A JSON object stored with the document. Absent or empty keeps the stored metadata; {} clears it." example:"{\"product\": \"db\"}"`
	Access      string        `form:"access" required:"false" maxLength:"30000" doc:"The access list as a JSON array of principals (as access of PUT /v1/documents); [] = everyone in the tenant; absent or empty: a new document is tenant-wide and a replaced one keeps its list." example:"[\"group:hr\"]"`
}

// UploadInput is the input of POST /v1/documents/upload.
type UploadInput struct {
	RawBody huma.MultipartFormFiles[UploadForm]
}

// Document is a stored document's description.
type Document struct {
	ID            uuid.UUID      `json:"id"`
	SourceURI     string         `json:"source_uri"`
	Title         string         `json:"title"`
	ContentType   string         `json:"content_type" doc:"Canonical MIME type the content was read as."`
	ContentSHA256 string         `json:"content_sha256" doc:"Hex SHA-256 of the content as read: the bytes sent, or for a gzipped file the bytes it holds (the same file sent plain or gzipped has one hash, and is unchanged either way)."`
	Metadata      map[string]any `json:"metadata"`
	Chunks        int            `json:"chunks"`
	CreatedAt     time.Time      `json:"created_at"`
	UpdatedAt     time.Time      `json:"updated_at"`
	Access        []string       `json:"access" doc:"Who may read the document (principals user:<subject>, group:<name>); [] = everyone in the tenant."`
	Content       *string        `json:"content,omitempty" doc:"The text extracted from the upload (markup removed), which chunk start/end offsets index into; only with include_content=true."`
}

// ListDocumentsInput is the input of GET /v1/documents.
type ListDocumentsInput struct {
	Limit           int    `query:"limit" default:"20" minimum:"1" maximum:"100" doc:"Page size."`
	Cursor          string `query:"cursor" maxLength:"4096" doc:"next_cursor of the previous page; absent for the first page."`
	SourceURIPrefix string `query:"source_uri_prefix" maxLength:"2048" doc:"Only documents whose source_uri starts with this (plain prefix, no wildcards)."`
}

// DocumentList is a page of documents, ordered by source_uri.
type DocumentList struct {
	Documents  []Document `json:"documents"`
	NextCursor string     `json:"next_cursor,omitempty" doc:"Pass as cursor for the next page; absent on the last page."`
}

// ListDocumentsOutput is the response of GET /v1/documents.
type ListDocumentsOutput struct {
	Body DocumentList
}

// DocumentIDInput addresses one document.
type DocumentIDInput struct {
	ID string `path:"id" format:"uuid" doc:"Document id."`
}

// GetDocumentInput is the input of GET /v1/documents/{id}.
type GetDocumentInput struct {
	DocumentIDInput
	IncludeContent bool `query:"include_content" doc:"Also return the extracted text that chunk offsets index into."`
}

// GetDocumentOutput is the response of GET /v1/documents/{id}.
type GetDocumentOutput struct {
	Body Document
}

// AccessBody is the body of PATCH /v1/documents/{id}/access.
type AccessBody struct {
	Access []string `json:"access" required:"true" maxItems:"100" doc:"The new access list: principals user:<subject> and group:<name>; [] = everyone in the tenant. Below the admin role it must be empty or name one of your own principals." example:"[\"group:hr\", \"user:alice\"]"`
}

// SetAccessInput is the input of PATCH /v1/documents/{id}/access.
type SetAccessInput struct {
	DocumentIDInput
	Body AccessBody
}

// MetadataBody is the body of PATCH /v1/documents/{id}/metadata.
type MetadataBody struct {
	Metadata map[string]any `json:"metadata" required:"true" doc:"The new metadata, a JSON object of at most 64 KiB; {} clears it." example:"{\"product\": \"console\"}"`
}

// SetMetadataInput is the input of PATCH /v1/documents/{id}/metadata.
type SetMetadataInput struct {
	DocumentIDInput
	Body MetadataBody
}

// DeleteBySourceURIInput is the input of DELETE /v1/documents.
type DeleteBySourceURIInput struct {
	SourceURI string `query:"source_uri" required:"true" minLength:"1" maxLength:"2048" doc:"source_uri of the document to delete."`
}

func (s *Server) registerDocuments() {
	tags := []string{"documents"}
	doc := opSpec{role: auth.RoleEditor, resource: "document", manage: true}
	read := opSpec{role: auth.RoleReader, resource: "document", manage: true}
	register(s, huma.Operation{
		OperationID: "upsertDocument", Method: http.MethodPut, Path: "/v1/documents", Tags: tags,
		Summary: "Add or replace a document",
		Description: "Extracts, chunks, embeds and stores the document in one transaction. Idempotent: the same content " +
			"under the same source_uri is `unchanged` and costs no embedding. An update changes only what it names: " +
			"absent title and metadata keep the stored ones (metadata {} clears it). Concurrent writes to one source_uri " +
			"serialise; each stores one request whole.",
		Errors: []int{http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity},
	}, doc, func(ctx context.Context, in *UpsertDocumentInput) (*DocumentWriteOutput, error) {
		b := in.Body
		d := ingest.Document{SourceURI: b.SourceURI, Title: b.Title, ContentType: b.ContentType, Content: []byte(b.Content),
			FromText: true, Metadata: b.Metadata}
		if b.Access != nil {
			d.Access, d.SetAccess = *b.Access, true
		}
		return s.upsert(ctx, d)
	})
	register(s, huma.Operation{
		OperationID: "uploadDocument", Method: http.MethodPost, Path: "/v1/documents/upload", Tags: tags,
		Summary:     "Upload a document file",
		Description: "multipart/form-data upload of one file: Markdown, HTML, plain text, PDF or DOCX (the type from content_type, else the part's specific type, else the file extension); otherwise the same as PUT /v1/documents. A PDF is read from its text layer: one without (a scan) is a 422, as ragd does no OCR; chunks of a PDF record their pages, which search results and citations show.",
		Errors:      []int{http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity},
	}, doc, s.upload)
	register(s, huma.Operation{
		OperationID: "listDocuments", Method: http.MethodGet, Path: "/v1/documents", Tags: tags,
		Summary: "List documents",
		Errors:  []int{http.StatusUnprocessableEntity},
	}, read, s.list)
	register(s, huma.Operation{
		OperationID: "getDocument", Method: http.MethodGet, Path: "/v1/documents/{id}", Tags: tags,
		Summary: "Get a document",
		Errors:  []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, read, s.get)
	register(s, huma.Operation{
		OperationID: "deleteDocument", Method: http.MethodDelete, Path: "/v1/documents/{id}", Tags: tags,
		Summary: "Delete a document",
		Errors:  []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, doc, func(ctx context.Context, in *DocumentIDInput) (*DocumentWriteOutput, error) {
		id, err := uuid.Parse(in.ID)
		if err != nil {
			return nil, invalidf("id must be a UUID")
		}
		t, err := tenantOf(ctx)
		if err != nil {
			return nil, err
		}
		o, err := s.deps.Ingester.Delete(ctx, t, id)
		return s.written(o, err)
	})
	register(s, huma.Operation{
		OperationID: "setDocumentAccess", Method: http.MethodPatch, Path: "/v1/documents/{id}/access", Tags: tags,
		Summary: "Change who may read a document",
		Description: "Replaces the document's access list and nothing else (content, chunks, metadata and updated_at " +
			"are kept); the next request of every reader sees the change. A document the caller cannot read is 404.",
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, doc, s.setAccess)
	register(s, huma.Operation{
		OperationID: "setDocumentMetadata", Method: http.MethodPatch, Path: "/v1/documents/{id}/metadata", Tags: tags,
		Summary: "Change a document's metadata",
		Description: "Replaces the document's metadata and nothing else (content, chunks, title and access are kept; " +
			"nothing is re-embedded); search's metadata filter sees it at once. {} clears it. A document the caller cannot read is 404.",
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, doc, s.setMetadata)
	register(s, huma.Operation{
		OperationID: "deleteDocumentBySourceURI", Method: http.MethodDelete, Path: "/v1/documents", Tags: tags,
		Summary: "Delete a document by source_uri",
		Errors:  []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, doc, func(ctx context.Context, in *DeleteBySourceURIInput) (*DocumentWriteOutput, error) {
		t, err := tenantOf(ctx)
		if err != nil {
			return nil, err
		}
		o, err := s.deps.Ingester.DeleteBySourceURI(ctx, t, in.SourceURI)
		return s.written(o, err)
	})
}

func (s *Server) upsert(ctx context.Context, d ingest.Document) (*DocumentWriteOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	if d.SetAccess {
		if err := readableByCaller(ctx, d.Access); err != nil {
			return nil, err
		}
	}
	if err := s.checkQuota(ctx, t, d.SourceURI, len(d.Content)); err != nil {
		return nil, err
	}
	d.MaxChunks = syncChunks(s.limits.RequestTimeout)
	o, err := s.deps.Ingester.Upsert(ctx, t, d)
	if err == nil {
		s.deps.Recorder.Count(t.ID, traffic.EmbeddedChunks, int64(o.Embedded))
	}
	return s.written(o, err)
}

// syncChunksPerSecond is the embedding rate a synchronous write counts on:
// a quarter of the local model's on two idle cores (100 chunks/s), as
// writes share the machine with searches and each other.
const syncChunksPerSecond = 25

// syncChunks is the most chunks a synchronous write takes within deadline
// (at least 100): a 9.6 MB text of 9,143 chunks under the 60 s default
// always ended in 504 after a minute, with nothing stored.
func syncChunks(deadline time.Duration) int {
	return max(100, int(deadline.Seconds()*syncChunksPerSecond))
}

func (s *Server) written(o ingest.Outcome, err error) (*DocumentWriteOutput, error) {
	if err != nil {
		return nil, err
	}
	s.metrics.observeOutcome(o)
	return &DocumentWriteOutput{Body: DocumentWrite{ID: o.DocumentID, SourceURI: o.SourceURI, Status: string(o.Status), Chunks: o.Chunks}}, nil
}

func (s *Server) upload(ctx context.Context, in *UploadInput) (*DocumentWriteOutput, error) {
	if err := unknownFormField[UploadForm](in.RawBody.Form); err != nil {
		return nil, err
	}
	form := in.RawBody.Data()
	f := form.File
	if !f.IsSet {
		return nil, invalidf("file is required")
	}
	defer f.Close()
	content, err := io.ReadAll(io.LimitReader(f, s.limits.MaxBodyBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(content)) > s.limits.MaxBodyBytes {
		return nil, newProblem(ctx, http.StatusRequestEntityTooLarge, "request body too large")
	}
	uri := form.SourceURI
	if uri == "" {
		uri = path.Base(strings.ReplaceAll(f.Filename, `\`, "/"))
		if uri == "" || uri == "." || uri == ".." || uri == "/" {
			return nil, invalidf("source_uri is required when the file has no name")
		}
	}
	ct := form.ContentType
	if ct == "" {
		declared := ""
		if hs := in.RawBody.Form.File["file"]; len(hs) == 1 {
			declared = hs[0].Header.Get("Content-Type")
		}
		ct = uploadType(declared, f.Filename)
	}
	var meta map[string]any
	if strings.TrimSpace(form.Metadata) != "" {
		var err error
		if meta, err = ingest.DecodeMetadata([]byte(form.Metadata)); err != nil || meta == nil {
			if errors.Is(err, ingest.ErrMetadataEncoding) {
				return nil, invalidf("metadata must be valid UTF-8, without half a UTF-16 surrogate pair escaped alone (\\ud800)")
			}
			return nil, invalidf("metadata must be a JSON object")
		}
	}
	d := ingest.Document{SourceURI: uri, Title: form.Title, ContentType: ct, Content: content, Metadata: meta}
	if strings.TrimSpace(form.Access) != "" {
		// null is no array: taken as an empty list, it would make the
		// document readable by the whole tenant.
		if err := json.Unmarshal([]byte(form.Access), &d.Access); err != nil || d.Access == nil {
			return nil, invalidf("access must be a JSON array of principals, e.g. [\"group:hr\"] ([] = everyone in the tenant; leave the field out to keep the list)")
		}
		d.SetAccess = true
	}
	return s.upsert(ctx, d)
}

// readableByCaller refuses an access list that would hide the document
// from its writer: below the admin role's management view, the list must
// be empty or name one of the caller's principals (the database refuses
// such a write too; this says why). Errors: a 422 naming the caller's
// principals.
func readableByCaller(ctx context.Context, access []string) error {
	v := callerVisibility(ctx)
	norm, err := auth.NormalizeAccess(access)
	if err != nil {
		return invalidf("%s", strings.TrimPrefix(err.Error(), "auth: "))
	}
	if !v.Sees(norm) {
		return invalidf("access must be empty or name one of your principals %v: you could not read the document afterwards", v.Principals())
	}
	return nil
}

func (s *Server) setAccess(ctx context.Context, in *SetAccessInput) (*GetDocumentOutput, error) {
	return s.patchDocument(ctx, in.DocumentIDInput, func(t tenant.Tenant, id uuid.UUID) error {
		if in.Body.Access == nil {
			// JSON null passes the schema's required check; taken as [],
			// it would make the document readable by the whole tenant.
			return invalidf("access must be a JSON array of principals ([] = everyone in the tenant), not null")
		}
		if err := readableByCaller(ctx, in.Body.Access); err != nil {
			return err
		}
		_, err := s.deps.Ingester.SetAccess(ctx, t, id, in.Body.Access)
		return err
	})
}

func (s *Server) setMetadata(ctx context.Context, in *SetMetadataInput) (*GetDocumentOutput, error) {
	return s.patchDocument(ctx, in.DocumentIDInput, func(t tenant.Tenant, id uuid.UUID) error {
		if in.Body.Metadata == nil {
			// JSON null passes the schema's required check; it is no object.
			return invalidf("metadata must be a JSON object ({} clears it), not null")
		}
		_, err := s.deps.Ingester.SetMetadata(ctx, t, id, in.Body.Metadata)
		return err
	})
}

// patchDocument runs change on the caller's tenant and the document the
// path names, then returns the document as GET does.
func (s *Server) patchDocument(ctx context.Context, doc DocumentIDInput, change func(tenant.Tenant, uuid.UUID) error) (*GetDocumentOutput, error) {
	id, err := uuid.Parse(doc.ID)
	if err != nil {
		return nil, invalidf("id must be a UUID")
	}
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := change(t, id); err != nil {
		return nil, err
	}
	return s.get(ctx, &GetDocumentInput{DocumentIDInput: doc})
}

// uploadType is the type an uploaded file is declared as, for
// extract.Detect: a specific declared type (Markdown, HTML, PDF, …) as it
// is; a generic one (text/plain, application/octet-stream, gzip, none)
// defers to the file extension (.md, .html, .txt, …, and "install.md.gz"
// to .md), keeping a charset parameter;
// otherwise text/plain when declared so, else nothing (the bytes decide).
func uploadType(declared, filename string) string {
	mt, params, err := mime.ParseMediaType(declared)
	if err != nil {
		mt, params = "", nil // none, or unreadable: generic
	}
	switch mt {
	case "", "text/plain", "application/octet-stream", "application/gzip", "application/x-gzip":
	default:
		return declared
	}
	if t, err := extract.TypeFromPath(filename); err == nil {
		// (A gzipped file's name without ".gz" says what it holds: the
		// pipeline reads it decompressed.)
		return mime.FormatMediaType(t, params)
	}
	if mt == "text/plain" {
		return declared
	}
	return ""
}

// Cursors are opaque to clients: base64url of a version tag and the last
// source_uri of the previous page (keyset pagination).
const cursorTag = "c1:"

func encodeCursor(after string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorTag + after))
}

func decodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), cursorTag) {
		return "", invalidf("cursor is not one this API returned")
	}
	return strings.TrimPrefix(string(b), cursorTag), nil
}

func (s *Server) list(ctx context.Context, in *ListDocumentsInput) (*ListDocumentsOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	after := ""
	if in.Cursor != "" {
		if after, err = decodeCursor(in.Cursor); err != nil {
			return nil, err
		}
	}
	var rows []store.ListDocumentsRow
	var access map[uuid.UUID][]string
	err = store.InTenant(ctx, s.deps.Pool, t.ID, func(tx pgx.Tx) error {
		var err error
		rows, err = store.New().ListDocuments(ctx, tx, store.ListDocumentsParams{
			TenantID: t.ID, Prefix: in.SourceURIPrefix, After: after, MaxRows: int32(in.Limit + 1)})
		if err != nil {
			return err
		}
		ids := make([]uuid.UUID, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		access, err = store.DocumentAccess(ctx, tx, t.ID, ids)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := &ListDocumentsOutput{Body: DocumentList{Documents: make([]Document, 0, min(len(rows), in.Limit))}}
	if len(rows) > in.Limit {
		rows = rows[:in.Limit]
		out.Body.NextCursor = encodeCursor(rows[len(rows)-1].SourceUri)
	}
	for _, r := range rows {
		d, err := document(store.GetDocumentRow(r))
		if err != nil {
			return nil, err
		}
		d.Access = access[d.ID]
		if d.Access == nil {
			d.Access = []string{}
		}
		out.Body.Documents = append(out.Body.Documents, d)
	}
	return out, nil
}

func (s *Server) get(ctx context.Context, in *GetDocumentInput) (*GetDocumentOutput, error) {
	id, err := uuid.Parse(in.ID)
	if err != nil {
		return nil, invalidf("id must be a UUID")
	}
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	var out GetDocumentOutput
	err = store.InTenant(ctx, s.deps.Pool, t.ID, func(tx pgx.Tx) error {
		q := store.New()
		row, err := q.GetDocument(ctx, tx, store.GetDocumentParams{TenantID: t.ID, ID: id})
		if errors.Is(err, store.ErrNotFound) {
			return errNotFound // also another tenant's id
		}
		if err != nil {
			return err
		}
		if out.Body, err = document(row); err != nil {
			return err
		}
		access, err := store.DocumentAccess(ctx, tx, t.ID, []uuid.UUID{id})
		if err != nil {
			return err
		}
		out.Body.Access = access[id]
		if out.Body.Access == nil {
			out.Body.Access = []string{}
		}
		if in.IncludeContent {
			body, err := q.GetDocumentBody(ctx, tx, store.GetDocumentBodyParams{TenantID: t.ID, ID: id})
			if errors.Is(err, store.ErrNotFound) {
				return errNotFound // deleted between the two reads
			}
			if err != nil {
				return err
			}
			out.Body.Content = &body
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func document(r store.GetDocumentRow) (Document, error) {
	d := Document{ID: r.ID, SourceURI: r.SourceUri, Title: r.Title, ContentType: r.ContentType, ContentSHA256: r.ContentSha,
		Chunks: int(r.ChunkCount), CreatedAt: r.CreatedAt.Time, UpdatedAt: r.UpdatedAt.Time, Metadata: map[string]any{}}
	if len(r.Metadata) > 0 {
		var err error
		if d.Metadata, err = ingest.DecodeMetadata(r.Metadata); err != nil {
			return d, errors.Join(errors.New("api: stored metadata is not a JSON object"), err)
		}
		if d.Metadata == nil {
			d.Metadata = map[string]any{}
		}
	}
	return d, nil
}
