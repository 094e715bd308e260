package api_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

type part struct{ field, filename, content string }

// jobForm is a multipart body of file parts and fields.
func jobForm(t *testing.T, parts []part, fields map[string]string) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="`+p.field+`"; filename="`+p.filename+`"`)
		h.Set("Content-Type", "application/octet-stream")
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(p.content))
	}
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

// worker works the jobs of tenants until none is left, as `ragd serve`'s
// workers do (limited to the test's tenants).
func (b *bundle) worker(tenants ...uuid.UUID) *job.Service {
	return job.New(testdb.App(b.t), b.deps.Ingester, job.Options{Tenants: tenants})
}

func drainJobs(t *testing.T, w *job.Service) {
	t.Helper()
	for {
		ok, err := w.Work(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return
		}
	}
}

func TestIngestJobLifecycle(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor, reader := token(t, b.a.ID, auth.RoleEditor), token(t, b.a.ID, auth.RoleReader)
	body, ct := jobForm(t, []part{
		{"files", "guide/install.md", docInstall},
		{"files", "billing.txt", docBilling},
		{"files", "logo.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"},
	}, map[string]string{"base_uri": "https://docs.test/v2", "metadata": `{"product":"widgets"}`})
	w := b.do(req{method: "POST", path: "/v1/ingest/jobs", token: editor, body: body.Bytes(), header: map[string]string{"Content-Type": ct}})
	j := decode[job.Job](t, w, http.StatusAccepted)
	if loc := w.Header().Get("Location"); loc != "/v1/ingest/jobs/"+j.ID.String() || j.Total != 3 || j.Status != job.StatusQueued || j.Queued != 3 {
		t.Fatalf("created: Location %q, job %+v", loc, j)
	}
	// A reader cannot submit.
	body, ct = jobForm(t, []part{{"files", "x.md", "# X"}}, nil)
	problem(t, b.do(req{method: "POST", path: "/v1/ingest/jobs", token: reader, body: body.Bytes(), header: map[string]string{"Content-Type": ct}}), http.StatusForbidden)

	// The events stream follows the job while a worker works it, and ends.
	done := make(chan struct{})
	go func() { drainJobs(t, b.worker(b.a.ID)); close(done) }()
	ev := b.do(req{method: "GET", path: "/v1/ingest/jobs/" + j.ID.String() + "/events", token: reader})
	<-done
	if ev.Code != http.StatusOK || ev.Header().Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", ev.Code, ev.Body.String())
	}
	events := parseEvents(t, ev.Body.String())
	if len(events) < 3 || events[0].name != "job" || events[len(events)-1].name != "end" {
		t.Fatalf("events %v: want job first, end last", events)
	}
	var end job.Job
	json.Unmarshal([]byte(events[len(events)-1].data), &end)
	if end.Done != 3 || end.Stored != 2 || end.Status != job.StatusCompleted {
		t.Fatalf("end event %+v", end)
	}
	lastStage := map[int]string{}
	for _, e := range events {
		if e.name == "document" {
			var it job.Item
			json.Unmarshal([]byte(e.data), &it)
			lastStage[it.Index] = it.Stage
		}
	}
	if lastStage[0] != job.StageStored || lastStage[1] != job.StageStored || lastStage[2] != job.StageSkipped {
		t.Fatalf("last document stages %v", lastStage)
	}

	got := decode[api.JobDetail](t, b.do(req{method: "GET", path: "/v1/ingest/jobs/" + j.ID.String() + "?limit=2", token: reader}), http.StatusOK)
	if got.Job.Status != job.StatusCompleted || len(got.Documents) != 2 || got.NextAfter == nil || *got.NextAfter != 1 ||
		got.Documents[0].SourceURI != "https://docs.test/v2/guide/install.md" || got.Documents[0].Stage != job.StageStored {
		t.Fatalf("job detail %+v", got)
	}
	page2 := decode[api.JobDetail](t, b.do(req{method: "GET", path: "/v1/ingest/jobs/" + j.ID.String() + "?after=1", token: reader}), http.StatusOK)
	if len(page2.Documents) != 1 || page2.Documents[0].Stage != job.StageSkipped || page2.NextAfter != nil {
		t.Fatalf("page 2 %+v", page2)
	}
	// The stored document is searchable with the job's metadata.
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + got.Documents[0].DocumentID.String(), token: reader}), http.StatusOK)
	if doc.SourceURI != "https://docs.test/v2/guide/install.md" || doc.Metadata["product"] != "widgets" {
		t.Fatalf("stored document %+v", doc)
	}
	list := decode[api.JobList](t, b.do(req{method: "GET", path: "/v1/ingest/jobs", token: reader}), http.StatusOK)
	if len(list.Jobs) != 1 || list.Jobs[0].ID != j.ID || list.Jobs[0].Done != 3 {
		t.Fatalf("list %+v", list)
	}

	// Tenant B sees none of it.
	other := token(t, b.b.ID, auth.RoleAdmin)
	problem(t, b.do(req{method: "GET", path: "/v1/ingest/jobs/" + j.ID.String(), token: other}), http.StatusNotFound)
	problem(t, b.do(req{method: "GET", path: "/v1/ingest/jobs/" + j.ID.String() + "/events", token: other}), http.StatusNotFound)
	if l := decode[api.JobList](t, b.do(req{method: "GET", path: "/v1/ingest/jobs", token: other}), http.StatusOK); len(l.Jobs) != 0 {
		t.Fatalf("tenant B lists %d jobs", len(l.Jobs))
	}
}

type event struct{ name, data string }

func parseEvents(t *testing.T, s string) []event {
	t.Helper()
	var out []event
	for _, block := range strings.Split(strings.TrimSpace(s), "\n\n") {
		var e event
		for _, line := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				e.name = v
			} else if v, ok := strings.CutPrefix(line, "data: "); ok {
				e.data = v
			}
		}
		out = append(out, e)
	}
	return out
}

func TestIngestJobRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	post := func(parts []part, fields map[string]string) api.Problem {
		t.Helper()
		body, ct := jobForm(t, parts, fields)
		return problem(t, b.do(req{method: "POST", path: "/v1/ingest/jobs", token: editor, body: body.Bytes(),
			header: map[string]string{"Content-Type": ct}}), http.StatusUnprocessableEntity)
	}
	var tb bytes.Buffer
	gz := gzip.NewWriter(&tb)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "../../etc/cron.d/x.txt", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg})
	tw.Write([]byte("x"))
	tw.Close()
	gz.Close()
	for name, tc := range map[string]struct {
		parts  []part
		fields map[string]string
		detail string
	}{
		"traversal in a tar":  {[]part{{"archive", "docs.tar.gz", tb.String()}}, nil, "leaves the archive"},
		"traversal in a name": {[]part{{"files", "../secret.md", "# S"}}, nil, "leaves the archive"},
		"not an archive":      {[]part{{"archive", "docs.zip", "hello"}}, nil, "not a zip, tar or tar.gz"},
		"both":                {[]part{{"archive", "docs.tar.gz", tb.String()}, {"files", "a.md", "# A"}}, nil, "not both"},
		"no files":            {nil, map[string]string{"base_uri": "https://x.test"}, "no files"},
		"relative base":       {[]part{{"files", "a.md", "# A"}}, map[string]string{"base_uri": "docs"}, "absolute URL"},
		"bad metadata":        {[]part{{"files", "a.md", "# A"}}, map[string]string{"metadata": "[1]"}, "JSON object"},
		"duplicate":           {[]part{{"files", "a.md", "# A"}, {"files", "./a.md", "# B"}}, nil, "appears twice"},
	} {
		if p := post(tc.parts, tc.fields); !strings.Contains(p.Detail, tc.detail) {
			t.Errorf("%s: detail %q, want %q", name, p.Detail, tc.detail)
		}
	}
	if l := decode[api.JobList](t, b.do(req{method: "GET", path: "/v1/ingest/jobs", token: editor}), http.StatusOK); len(l.Jobs) != 0 {
		t.Fatalf("refused jobs were recorded: %+v", l.Jobs)
	}
}

// A job's body may exceed RAGD_MAX_BODY_BYTES (64 KiB in these tests) up to
// the job limit; a file over the per-document limit is refused alone.
func TestIngestJobBodyLimits(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	para := strings.Repeat("Widgets are configured with widgetctl. ", 20) + "\n\n"
	small := "# Small\n\n" + strings.Repeat(para, 35) // ~28 KiB
	big := "# Big\n\n" + strings.Repeat(para, 110)    // ~88 KiB
	body, ct := jobForm(t, []part{{"files", "a.md", small}, {"files", "b.md", small}, {"files", "big.md", big}}, nil)
	if body.Len() <= 64<<10 {
		t.Fatalf("body of %d bytes does not exceed the request limit", body.Len())
	}
	j := decode[job.Job](t, b.do(req{method: "POST", path: "/v1/ingest/jobs", token: editor, body: body.Bytes(),
		header: map[string]string{"Content-Type": ct}}), http.StatusAccepted)
	if j.Total != 3 || j.Refused != 1 || j.Queued != 2 {
		t.Fatalf("job %+v: want big.md refused at intake, two queued", j)
	}
	drainJobs(t, b.worker(b.a.ID))
	got := decode[api.JobDetail](t, b.do(req{method: "GET", path: "/v1/ingest/jobs/" + j.ID.String(), token: editor}), http.StatusOK)
	stages := []string{}
	for _, d := range got.Documents {
		stages = append(stages, d.SourceURI+":"+d.Stage)
	}
	if strings.Join(stages, " ") != "a.md:stored b.md:stored big.md:refused" || !strings.Contains(got.Documents[2].Error, "too large") {
		t.Fatalf("stages %v, big.md error %q", stages, got.Documents[2].Error)
	}
	// The other routes keep their limit.
	problem(t, b.do(req{method: "PUT", path: "/v1/documents", token: editor,
		body: map[string]any{"source_uri": "big.md", "content": big}}), http.StatusRequestEntityTooLarge)
}

// TestIngestJobsAreTheSubmitters: a job is read by the user who submitted
// it and by the admin role, never by another user of the tenant (its
// source_uris may name documents hidden from them); a recorded `ragd
// ingest` run only by admins; and a job writes as its submitter, so it
// cannot replace a document the submitter cannot see.
func TestIngestJobsAreTheSubmitters(t *testing.T) {
	t.Parallel()
	b := setup(t)
	as := func(role auth.Role, sub string, groups ...string) string {
		tok, err := auth.Issue(secret, b.a.ID, role, time.Hour, auth.WithSubject(sub), auth.WithGroups("", groups...))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	alice, aliceReads, bob, admin := as(auth.RoleEditor, "alice", "hr"), as(auth.RoleReader, "alice"), as(auth.RoleEditor, "bob"), as(auth.RoleAdmin, "root")

	// A document only group:hr can see.
	w := b.do(req{method: "PUT", path: "/v1/documents", token: admin,
		body: map[string]any{"source_uri": "https://hr.test/salaries.md", "content": "# Salaries\n\nThe salary bands.", "access": []string{"group:hr"}}})
	if w.Code != http.StatusOK {
		t.Fatalf("restricted document: %d %s", w.Code, w.Body.String())
	}
	submit := func(tok, name, content string) job.Job {
		t.Helper()
		body, ct := jobForm(t, []part{{"files", name, content}}, map[string]string{"base_uri": "https://hr.test"})
		return decode[job.Job](t, b.do(req{method: "POST", path: "/v1/ingest/jobs", token: tok, body: body.Bytes(), header: map[string]string{"Content-Type": ct}}), http.StatusAccepted)
	}
	ja := submit(alice, "salaries.md", "# Salaries\n\nThe salary bands, revised.")
	jb := submit(bob, "salaries.md", "# Salaries\n\nBob's version.")
	drainJobs(t, b.worker(b.a.ID))

	stage := func(tok string, id uuid.UUID) string {
		t.Helper()
		d := decode[api.JobDetail](t, b.do(req{method: "GET", path: "/v1/ingest/jobs/" + id.String(), token: tok}), http.StatusOK)
		if len(d.Documents) != 1 {
			t.Fatalf("job %s: %+v", id, d)
		}
		return d.Documents[0].Stage
	}
	// Alice (in group:hr) replaced the document; Bob's job could not: the
	// source_uri is taken by a document he cannot see.
	if got := stage(alice, ja.ID); got != job.StageStored {
		t.Errorf("alice's job: %s, want stored", got)
	}
	if got := stage(bob, jb.ID); got != job.StageFailed {
		t.Errorf("bob's job over a document hidden from him: %s, want failed", got)
	}
	doc := decode[api.DocumentList](t, b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=https://hr.test/", token: admin}), http.StatusOK)
	if len(doc.Documents) != 1 || !slices.Equal(doc.Documents[0].Access, []string{"group:hr"}) {
		t.Fatalf("the restricted document after both jobs: %+v", doc.Documents)
	}

	// Reads: each user sees their own jobs (whatever the token's role), the
	// admin every job; another user's job is a 404 like a missing one.
	ids := func(tok string) []uuid.UUID {
		t.Helper()
		var out []uuid.UUID
		for _, j := range decode[api.JobList](t, b.do(req{method: "GET", path: "/v1/ingest/jobs", token: tok}), http.StatusOK).Jobs {
			out = append(out, j.ID)
		}
		return out
	}
	if got := ids(aliceReads); !slices.Equal(got, []uuid.UUID{ja.ID}) {
		t.Errorf("alice lists %v, want her job only", got)
	}
	if got := ids(bob); !slices.Equal(got, []uuid.UUID{jb.ID}) {
		t.Errorf("bob lists %v, want his job only", got)
	}
	if got := ids(admin); len(got) != 2 {
		t.Errorf("the admin lists %v, want both jobs", got)
	}
	for _, path := range []string{"/v1/ingest/jobs/" + ja.ID.String(), "/v1/ingest/jobs/" + ja.ID.String() + "/events"} {
		missing := problem(t, b.do(req{method: "GET", path: strings.Replace(path, ja.ID.String(), uuid.NewString(), 1), token: bob}), http.StatusNotFound)
		hidden := problem(t, b.do(req{method: "GET", path: path, token: bob}), http.StatusNotFound)
		if hidden.Detail != missing.Detail {
			t.Errorf("%s: bob gets %q, a missing job %q", path, hidden.Detail, missing.Detail)
		}
	}

	// A run recorded with every document visible (an operator's `ragd
	// ingest`) is read by admins only.
	tn, err := tenant.Load(context.Background(), testdb.App(t), b.a.ID)
	if err != nil {
		t.Fatal(err)
	}
	run, err := b.worker(b.a.ID).Create(store.WithVisibility(context.Background(), store.AllDocuments()), tn, "cli",
		"/srv/hr", []job.File{{SourceURI: "https://hr.test/bonus.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(aliceReads); slices.Contains(got, run.ID) {
		t.Errorf("alice lists the operator's run %v", got)
	}
	if got := ids(admin); !slices.Contains(got, run.ID) {
		t.Errorf("the admin does not list the operator's run: %v", got)
	}
}

// TestIngestJobHonoursStorageQuotas: a job writes with the same rules as a
// PUT, storage quotas included. With the tenant at its document quota, a
// job's new file is refused with the reason on its item and is not stored
// (as its PUT is a 422), while its replacement of a stored document is
// stored.
func TestIngestJobHonoursStorageQuotas(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(editor, "install.md", docInstall)
	b.upsert(editor, "billing.md", docBilling)
	one := int64(1)
	setLimits(t, b.a.ID, tenant.Limits{MaxDocuments: &one})
	body, ct := jobForm(t, []part{{"files", "new.md", "# New\n\nA new page about widgets."}, {"files", "install.md", docInstall + "\nMore text.\n"}}, nil)
	j := decode[job.Job](t, b.do(req{method: "POST", path: "/v1/ingest/jobs", token: editor, body: body.Bytes(),
		header: map[string]string{"Content-Type": ct}}), http.StatusAccepted)
	drainJobs(t, b.worker(b.a.ID))
	got := decode[api.JobDetail](t, b.do(req{method: "GET", path: "/v1/ingest/jobs/" + j.ID.String(), token: editor}), http.StatusOK)
	stages := []string{}
	for _, d := range got.Documents {
		stages = append(stages, d.SourceURI+":"+d.Stage)
	}
	if strings.Join(stages, " ") != "new.md:refused install.md:stored" || !strings.Contains(got.Documents[0].Error, "quota exceeded: max_documents 1") {
		t.Fatalf("stages %v, new.md error %q", stages, got.Documents[0].Error)
	}
	w := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=new.md", token: editor})
	if strings.Contains(w.Body.String(), "new.md") {
		t.Fatalf("the refused file was stored: %s", w.Body.String())
	}
}
