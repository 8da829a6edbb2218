package main

import (
	"context"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
)

// mailJob is an account mail job as River keeps it.
type mailJob struct {
	mail, state string
	attempt     int
	errors      []string
}

func mailJobs(t *testing.T, st *store.Store) map[string]mailJob {
	t.Helper()
	rows, err := st.Pool().Query(context.Background(), `SELECT args->>'mail', state::text, attempt,
		coalesce((SELECT array_agg(e->>'error') FROM unnest(errors) e), '{}') FROM river_job WHERE kind = 'account.mail'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	jobs := map[string]mailJob{}
	for rows.Next() {
		var j mailJob
		if err := rows.Scan(&j.mail, &j.state, &j.attempt, &j.errors); err != nil {
			t.Fatal(err)
		}
		if _, twice := jobs[j.mail]; twice {
			t.Fatalf("two %s mail jobs", j.mail)
		}
		jobs[j.mail] = j
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	return jobs
}

// files lists every file under dir, with its contents.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		out[path] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUnwritableOutboxQueuesTheMailAndSendsItOnceWritable runs the real binary (mail goes to
// the outbox in the data directory: no SMTP relay is configured) with its outbox replaced by
// a regular file, so that no file can be created in it, even by root (the tests may run as
// root, which a read-only mode does not stop). A registration and a reset request answer as
// the contract says (201, 200: the account exists, the mail is a job), because mail is sent
// by a job after the request, not by the request: the request cannot report the failure.
// Each mail job fails, is kept to run again, and nothing is written; once the outbox is a
// directory again each job succeeds and writes exactly one .eml. The logs hold no link token.
func TestUnwritableOutboxQueuesTheMailAndSendsItOnceWritable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dataDir, dbURL := t.TempDir(), pgtest.EmptyURL(t)
	srv := startBinary(t,
		"DATABASE_URL="+dbURL,
		"PERCOLATE_DATA_DIR="+dataDir,
		"PERCOLATE_LOG_LEVEL=debug", // the most the logs ever say
	)
	outbox := mail.OutboxDir(dataDir)
	if fi, err := os.Stat(outbox); err != nil || !fi.IsDir() {
		t.Fatalf("the outbox %s is not a directory at start: %v", outbox, err)
	}
	if err := os.Remove(outbox); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outbox, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	const email, password = "zoe@example.com", "a-quiet-cup-of-tea"
	client := typedClient(t, srv.base)
	reg, err := client.RegisterWithResponse(typedCtx(t), api.RegisterRequest{
		Name: "Zoe", Email: openapi_types.Email(email), Password: password, ConfirmPassword: password})
	wantStatus(t, reg, err, http.StatusCreated)
	if got := reg.JSON201.Message; got != account.MsgRegistered {
		t.Errorf("register: message = %q, want %q", got, account.MsgRegistered)
	}
	reset, err := client.RequestPasswordResetWithResponse(typedCtx(t), &api.RequestPasswordResetParams{Email: openapi_types.Email(email)})
	wantStatus(t, reset, err, http.StatusOK)
	if got := reset.HTTPResponse.Header.Get("Content-Type"); !strings.HasPrefix(got, "text/plain") {
		t.Errorf("reset mail: Content-Type = %q, want text/plain", got)
	}
	if got := string(reset.Body); got != account.MsgResetMailSent {
		t.Errorf("reset mail: text = %q, want %q", got, account.MsgResetMailSent)
	}

	ctx := context.Background()
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Queries().GetUserByEmail(ctx, email); err != nil {
		t.Fatalf("the account was not created: %v", err)
	}

	waitJobs := func(what string, ok func(map[string]mailJob) bool) map[string]mailJob {
		t.Helper()
		deadline := time.Now().Add(150 * time.Second) // past a third try (River waits 1 s, 16 s, 81 s)
		for {
			jobs := mailJobs(t, st)
			if ok(jobs) {
				return jobs
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 150 s; jobs %+v\n%s", what, jobs, srv.logs.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// Each job failed and is kept to run again (River makes a retry due within a few seconds
	// available at once, later ones retryable).
	failed := waitJobs("both mail jobs failed once", func(jobs map[string]mailJob) bool {
		for _, m := range []string{"verify", "reset"} {
			if j := jobs[m]; j.attempt < 1 || len(j.errors) < 1 {
				return false
			}
		}
		return true
	})
	for m, j := range failed {
		if j.state != "available" && j.state != "retryable" && j.state != "running" {
			t.Fatalf("%s job after a failed send: %+v, want it to run again", m, j)
		}
		if !strings.Contains(j.errors[0], "outbox") {
			t.Errorf("%s job's error %q does not say the outbox failed", m, j.errors[0])
		}
	}
	// Nothing was written: the outbox is still the empty file, and it is the only file.
	if got := files(t, dataDir); len(got) != 1 || got[outbox] != "" {
		t.Fatalf("after the failed sends the data directory holds %v", got)
	}

	// The outbox is writable again: each job's next try writes its mail, once. (A job whose
	// 1 s retry ran before this fails once more and runs again 16 s later, within the wait.)
	if err := os.Remove(outbox); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(outbox, 0o700); err != nil {
		t.Fatal(err)
	}
	done := waitJobs("both mail jobs sent", func(jobs map[string]mailJob) bool {
		return len(jobs) == 2 && jobs["verify"].state == "completed" && jobs["reset"].state == "completed"
	})
	for m, j := range done {
		if j.attempt < 2 {
			t.Errorf("%s job completed at attempt %d, want a retry after the failure", m, j.attempt)
		}
	}
	sent := files(t, outbox)
	subjects := map[string]string{}
	links := regexp.MustCompile(`(?:email-verified\?t|reset\?token)=([A-Za-z0-9_-]{43})`)
	var tokens []string
	for path, body := range sent {
		name := filepath.Base(path)
		if !strings.HasSuffix(name, ".eml") || strings.HasPrefix(name, ".") {
			t.Errorf("outbox holds %s, which is not a written mail", name)
		}
		// Undo quoted-printable: soft line breaks and the encoded "=".
		plain := strings.ReplaceAll(strings.ReplaceAll(body, "=\r\n", ""), "=3D", "=")
		for _, l := range strings.Split(plain, "\r\n") {
			if s, ok := strings.CutPrefix(l, "Subject: "); ok {
				subjects[s] = name
			}
		}
		for _, m := range links.FindAllStringSubmatch(plain, -1) {
			tokens = append(tokens, m[1])
		}
	}
	if len(sent) != 2 || len(subjects) != 2 {
		t.Fatalf("outbox holds %d files with subjects %v, want one verification and one reset mail", len(sent), subjects)
	}
	if len(tokens) < 2 {
		t.Fatalf("found %d link tokens in the mails, want one in each", len(tokens))
	}
	logs := srv.logs.String()
	// The operator sees each failure, and that it will be tried again.
	if n := strings.Count(logs, `"msg":"jobexecutor.JobExecutor: Job errored; retrying","error":"mail: create outbox file`); n < 2 {
		t.Errorf("the logs report %d failed sends, want one a job at least\n%s", n, logs)
	}
	for _, tok := range tokens {
		if strings.Contains(logs, tok) {
			t.Errorf("the logs hold a mail's token")
		}
	}
	for _, leak := range []string{"email-verified?t", "reset?token", password} {
		if strings.Contains(logs, leak) {
			t.Errorf("the logs hold %q", leak)
		}
	}
	t.Logf("failed attempts: verify %d, reset %d; completed at attempts %d and %d; first errors: %s",
		len(done["verify"].errors), len(done["reset"].errors), done["verify"].attempt, done["reset"].attempt,
		failed["verify"].errors[0])
}
