package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"reflect"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
)

// opCreateJob is the operation whose body may be as large as
// Limits.MaxJobBytes (the middleware's limit for every other one is
// MaxBodyBytes).
const opCreateJob = "createIngestJob"

// CreateJobForm is the multipart form of POST /v1/ingest/jobs.
type CreateJobForm struct {
	Files    []huma.FormFile `form:"files" required:"false" contentType:"application/octet-stream" doc:"The documents, one part per file. Each part's file name (a relative path, e.g. guide/install.md) gives the document's source_uri: base_uri + \"/\" + the path (a space, '#', '?' or '%' in it percent-encoded), or the path itself without base_uri. The type comes from the bytes and the name, as for an upload; files of types ragd does not read are recorded as skipped."`
	Archive  huma.FormFile   `form:"archive" required:"false" contentType:"application/octet-stream" doc:"Instead of files: one zip, tar or tar.gz archive; each regular entry is a document whose source_uri is base_uri + \"/\" + its path in the archive (percent-encoded as for files). Entries with .. or absolute paths, links, devices, zip bombs and archives over the limits are refused."`
	BaseURI  string          `form:"base_uri" required:"false" maxLength:"1024" doc:"An absolute URL the file paths are appended to, e.g. https://docs.example.com/v2." example:"https://docs.example.com/v2"`
	Metadata string          `form:"metadata" required:"false" maxLength:"65536" doc:"A JSON object stored with every document of the job." example:"{\"product\": \"db\"}"`
}

// CreateJobInput is the input of POST /v1/ingest/jobs.
type CreateJobInput struct {
	RawBody huma.MultipartFormFiles[CreateJobForm]
}

// JobOutput is the response of POST /v1/ingest/jobs.
type JobOutput struct {
	Location string `header:"Location" doc:"The job's URL (GET it for its state)."`
	Body     job.Job
}

// JobIDInput addresses one job.
type JobIDInput struct {
	ID string `path:"id" format:"uuid" doc:"Job id."`
}

// GetJobInput is the input of GET /v1/ingest/jobs/{id}.
type GetJobInput struct {
	JobIDInput
	Limit int `query:"limit" default:"100" minimum:"1" maximum:"1000" doc:"Documents per page."`
	After int `query:"after" default:"-1" minimum:"-1" doc:"next_after of the previous page: documents with a higher index; -1 for the first page."`
}

// JobDetail is a job with a page of its documents.
type JobDetail struct {
	Job       job.Job    `json:"job"`
	Documents []job.Item `json:"documents" doc:"The job's documents in index order, one page."`
	NextAfter *int       `json:"next_after,omitempty" doc:"Pass as after for the next page of documents; absent on the last page."`
}

// GetJobOutput is the response of GET /v1/ingest/jobs/{id}.
type GetJobOutput struct {
	Body JobDetail
}

// ListJobsInput is the input of GET /v1/ingest/jobs.
type ListJobsInput struct {
	Limit  int    `query:"limit" default:"20" minimum:"1" maximum:"100" doc:"Page size."`
	Cursor string `query:"cursor" maxLength:"200" doc:"next_cursor of the previous page; absent for the first page."`
}

// JobList is a page of jobs, newest first.
type JobList struct {
	Jobs       []job.Job `json:"jobs"`
	NextCursor string    `json:"next_cursor,omitempty" doc:"Pass as cursor for the next page; absent on the last page."`
}

// ListJobsOutput is the response of GET /v1/ingest/jobs.
type ListJobsOutput struct {
	Body JobList
}

// JobEventsInput is the input of GET /v1/ingest/jobs/{id}/events.
type JobEventsInput struct {
	JobIDInput
}

// jobEventsPoll is how often the events stream reads the job.
const jobEventsPoll = 500 * time.Millisecond

func (s *Server) registerJobs() {
	tags := []string{"ingest jobs"}
	// Management routes: the admin role sees every job; everyone else only
	// the jobs they submitted (migration 00023).
	spec := opSpec{role: auth.RoleEditor, resource: "job", manage: true}
	read := opSpec{role: auth.RoleReader, resource: "job", manage: true}
	register(s, huma.Operation{
		OperationID: opCreateJob, Method: http.MethodPost, Path: "/v1/ingest/jobs", Tags: tags,
		Summary: "Ingest many documents in the background",
		Description: "multipart/form-data with many `files` parts, or one `archive` (zip, tar, tar.gz). The job and " +
			"its documents' bytes are stored, then `ragd serve`'s workers extract, chunk, embed and store each document " +
			"exactly as PUT /v1/documents does, resuming after a restart. Answers 202 with the job and its Location; " +
			"follow it with GET /v1/ingest/jobs/{id} or its events stream. The request body may be up to " +
			"RAGD_INGEST_JOB_MAX_BYTES; each document up to RAGD_MAX_BODY_BYTES (a larger one is refused alone).",
		DefaultStatus: http.StatusAccepted,
		MaxBodyBytes:  s.limits.MaxJobBytes,
		Errors:        []int{http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity},
	}, spec, s.createJob)
	register(s, huma.Operation{
		OperationID: "listIngestJobs", Method: http.MethodGet, Path: "/v1/ingest/jobs", Tags: tags,
		Summary:     "List ingestion jobs",
		Description: "The tenant's jobs, newest first: those submitted to POST /v1/ingest/jobs and the recorded `ragd ingest` runs.",
		Errors:      []int{http.StatusUnprocessableEntity},
	}, read, s.listJobs)
	register(s, huma.Operation{
		OperationID: "getIngestJob", Method: http.MethodGet, Path: "/v1/ingest/jobs/{id}", Tags: tags,
		Summary: "Get an ingestion job and its documents' stages",
		Errors:  []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, read, s.getJob)

	reg := s.api.OpenAPI().Components.Schemas
	jobSchema := reg.Schema(reflect.TypeFor[job.Job](), true, "Job")
	itemSchema := reg.Schema(reflect.TypeFor[job.Item](), true, "JobDocument")
	register(s, huma.Operation{
		OperationID: "ingestJobEvents", Method: http.MethodGet, Path: "/v1/ingest/jobs/{id}/events", Tags: tags,
		Summary: "Follow an ingestion job (server-sent events)",
		Description: "A text/event-stream: `event: job` with the job's counts at the start and whenever they change, " +
			"`event: document` for each document whose stage changed (at least once; the index identifies it), and " +
			"`event: end` with the final counts when every document is final, after which the stream closes. " +
			"A stream also ends at the request timeout (RAGD_REQUEST_TIMEOUT): reconnect, as EventSource does.",
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		Responses: map[string]*huma.Response{"200": {
			Description: "Server-sent events.",
			Content: map[string]*huma.MediaType{"text/event-stream": {Schema: &huma.Schema{
				Description: "Each event's data is one JSON object: job and end → Job, document → JobDocument.",
				OneOf: []*huma.Schema{
					{Title: "job", Ref: jobSchema.Ref},
					{Title: "document", Ref: itemSchema.Ref},
					{Title: "end", Ref: jobSchema.Ref},
				},
			}}},
		}},
	}, read, s.jobEvents)
}

func (s *Server) createJob(ctx context.Context, in *CreateJobInput) (*JobOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	if in.RawBody.Form != nil {
		defer in.RawBody.Form.RemoveAll() //nolint:errcheck // temporary files of the parsed form
	}
	if err := unknownFormField[CreateJobForm](in.RawBody.Form); err != nil {
		return nil, err
	}
	form := in.RawBody.Data()
	if err := job.CheckBaseURI(form.BaseURI); err != nil {
		return nil, err
	}
	intake := s.jobIntake.Intake()
	defer intake.Release() // the files are stored (or refused) by then
	jin := job.Input{BaseURI: form.BaseURI, Intake: intake,
		Limits: job.Limits{MaxFileBytes: s.limits.MaxBodyBytes, MaxJobBytes: s.limits.MaxJobBytes, MaxFiles: s.limits.MaxJobFiles}}
	if strings.TrimSpace(form.Metadata) != "" {
		var err error
		if jin.Metadata, err = ingest.DecodeMetadata([]byte(form.Metadata)); err != nil || jin.Metadata == nil {
			if errors.Is(err, ingest.ErrMetadataEncoding) {
				return nil, invalidf("metadata must be valid UTF-8, without half a UTF-16 surrogate pair escaped alone (\\ud800)")
			}
			return nil, invalidf("metadata must be a JSON object")
		}
		if _, err := ingest.CheckMetadata(jin.Metadata); err != nil {
			return nil, err // refused now, as a document write would, not file by file later
		}
	}
	var files []job.File
	label := ""
	switch {
	case form.Archive.IsSet && len(form.Files) > 0:
		return nil, invalidf("send files or one archive, not both")
	case form.Archive.IsSet:
		defer form.Archive.Close()
		label = path.Base(strings.ReplaceAll(form.Archive.Filename, `\`, "/"))
		if files, err = jin.Archive(form.Archive.File, form.Archive.Size); err != nil {
			return nil, err
		}
	case len(form.Files) > 0:
		named := make([]job.NamedFile, 0, len(form.Files))
		headers := in.RawBody.Form.File["files"]
		for i, f := range form.Files {
			defer f.Close()
			name := f.Filename
			if i < len(headers) {
				name = partPath(headers[i].Header.Get("Content-Disposition"), name)
			}
			if name == "" {
				return nil, invalidf("files[%d] has no file name (it gives the source_uri)", i)
			}
			if f.Size > s.limits.MaxBodyBytes {
				named = append(named, job.NamedFile{Name: name, Size: f.Size})
				continue
			}
			if err := intake.Hold(f.Size); err != nil {
				return nil, err
			}
			b := make([]byte, f.Size)
			if _, err := io.ReadFull(f, b); err != nil {
				return nil, err
			}
			named = append(named, job.NamedFile{Name: name, Content: b, Size: int64(len(b))})
		}
		if files, err = jin.Files(named); err != nil {
			return nil, err
		}
		label = fmt.Sprintf("%d files", len(files))
	default:
		return nil, invalidf("no files: send files parts or an archive part")
	}
	j, err := s.deps.Jobs.Create(ctx, t, job.OriginAPI, label, files)
	if err != nil {
		return nil, err
	}
	return &JobOutput{Location: "/v1/ingest/jobs/" + j.ID.String(), Body: j}, nil
}

// jobIntakeJobs is how many jobs at the per-job byte limit the server
// holds in memory at once (job.Intake); more is refused with 503.
const jobIntakeJobs = 2

// partPath is a file part's name as sent, directories included
// ("guide/install.md"): Go's multipart reader keeps only the last element
// in FileHeader.Filename, and the path is what the source_uri is made of
// (job.Input.SourceURI refuses the unsafe ones). def when absent.
func partPath(disposition, def string) string {
	_, params, err := mime.ParseMediaType(disposition)
	if err != nil || params["filename"] == "" {
		return def
	}
	return params["filename"]
}

func parseJobID(id string) (uuid.UUID, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return uuid.Nil, invalidf("id must be a UUID")
	}
	return u, nil
}

func (s *Server) getJob(ctx context.Context, in *GetJobInput) (*GetJobOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	id, err := parseJobID(in.ID)
	if err != nil {
		return nil, err
	}
	j, err := s.deps.Jobs.Get(ctx, t.ID, id)
	if err != nil {
		return nil, err
	}
	its, err := s.deps.Jobs.Items(ctx, t.ID, id, in.After, in.Limit+1)
	if err != nil {
		return nil, err
	}
	out := &GetJobOutput{Body: JobDetail{Job: j, Documents: its}}
	if len(its) > in.Limit {
		out.Body.Documents = its[:in.Limit]
		next := its[in.Limit-1].Index
		out.Body.NextAfter = &next
	}
	return out, nil
}

// Job list cursors: base64url of a tag, the last job's created_at
// (RFC 3339, nanoseconds) and id.
const jobCursorTag = "j1:"

func encodeJobCursor(j job.Job) string {
	return base64.RawURLEncoding.EncodeToString([]byte(jobCursorTag + j.CreatedAt.UTC().Format(time.RFC3339Nano) + "," + j.ID.String()))
}

func decodeJobCursor(c string) (*job.Cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	bad := invalidf("cursor is not one this API returned")
	if err != nil || !strings.HasPrefix(string(b), jobCursorTag) {
		return nil, bad
	}
	ts, id, ok := strings.Cut(strings.TrimPrefix(string(b), jobCursorTag), ",")
	if !ok {
		return nil, bad
	}
	at, err1 := time.Parse(time.RFC3339Nano, ts)
	u, err2 := uuid.Parse(id)
	if err1 != nil || err2 != nil {
		return nil, bad
	}
	return &job.Cursor{CreatedAt: at, ID: u}, nil
}

func (s *Server) listJobs(ctx context.Context, in *ListJobsInput) (*ListJobsOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	var after *job.Cursor
	if in.Cursor != "" {
		if after, err = decodeJobCursor(in.Cursor); err != nil {
			return nil, err
		}
	}
	js, err := s.deps.Jobs.List(ctx, t.ID, after, in.Limit+1)
	if err != nil {
		return nil, err
	}
	out := &ListJobsOutput{Body: JobList{Jobs: js}}
	if len(js) > in.Limit {
		out.Body.Jobs = js[:in.Limit]
		out.Body.NextCursor = encodeJobCursor(js[in.Limit-1])
	}
	return out, nil
}

// jobEvents streams a job's progress until every document is final, the
// client leaves or the request deadline passes. A 404 (another tenant's or
// no such job) is answered before the stream starts.
func (s *Server) jobEvents(ctx context.Context, in *JobEventsInput) (*huma.StreamResponse, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	id, err := parseJobID(in.ID)
	if err != nil {
		return nil, err
	}
	first, err := s.deps.Jobs.Get(ctx, t.ID, id)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", "text/event-stream")
		hctx.SetHeader("Cache-Control", "no-cache")
		hctx.SetHeader("X-Accel-Buffering", "no")
		hctx.SetStatus(http.StatusOK)
		w := hctx.BodyWriter()
		send := func(event string, v any) error {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
				return err
			}
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			return nil
		}
		// Documents are sent when their (stage, updated_at) is new, read
		// in (updated_at, index) pages; each poll looks a little back from
		// the last change seen, as a transaction's now() can be earlier
		// than its commit.
		sent := map[int]time.Time{}
		var since time.Time
		j, last := first, job.Job{}
		tick := time.NewTicker(jobEventsPoll)
		defer tick.Stop()
		for {
			if j.Done != last.Done || j.Running != last.Running || j.Queued != last.Queued || last.ID == uuid.Nil {
				if send("job", j) != nil {
					return
				}
				last = j
			}
			at, after := since.Add(-2*time.Second), -1
			for {
				its, err := s.deps.Jobs.ItemsSince(ctx, t.ID, id, at, after, 500)
				if err != nil {
					return
				}
				for _, it := range its {
					at, after = it.UpdatedAt, it.Index
					if it.UpdatedAt.After(since) {
						since = it.UpdatedAt
					}
					if prev, ok := sent[it.Index]; ok && !it.UpdatedAt.After(prev) {
						continue
					}
					sent[it.Index] = it.UpdatedAt
					if send("document", it) != nil {
						return
					}
				}
				if len(its) < 500 {
					break
				}
			}
			if j.Done >= j.Total {
				_ = send("end", j)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if j, err = s.deps.Jobs.Get(ctx, t.ID, id); err != nil {
				if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
					logger(ctx).WarnContext(ctx, "job events: read failed", "err", err)
				}
				return
			}
		}
	}}, nil
}
