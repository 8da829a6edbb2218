package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/mail/smtptest"
	"github.com/percolate/percolate/backend/internal/queue"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

const testPublicURL = "https://percolate.test"

// cheapArgon keeps the many hashes of these tests fast; TestLoginDoesNotRevealAccounts uses
// the real parameters.
var cheapArgon = auth.Argon2Params{MemoryKiB: 256, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

type accEnv struct {
	t      *testing.T
	st     *store.Store
	q      *queue.Queue
	h      http.Handler
	smtp   *smtptest.Server
	svc    *account.Service
	tokens *auth.Tokens
	keys   *auth.Keyring
	ip     string
	api    *apiclient.ClientWithResponses // the typed client, from ip
}

// smtpSender is a mail sender to an SMTP server of the test's own, and that server.
func smtpSender(t *testing.T) (mail.Sender, *smtptest.Server) {
	t.Helper()
	srv := smtptest.Start(t)
	host, port, _ := net.SplitHostPort(srv.Addr())
	p, _ := strconv.Atoi(port)
	sender, err := mail.New(config.Mail{SMTP: config.SMTP{Host: host, Port: p}, From: "Percolate <no-reply@percolate.test>"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return sender, srv
}

// dbTokens are tokens signed with the keys in the database, as the app keeps them.
func dbTokens(t *testing.T, st *store.Store) (*auth.Keyring, *auth.Tokens) {
	t.Helper()
	keys, err := auth.OpenKeyring(context.Background(), st, auth.KeyringConfig{})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens(st, auth.Config{Keys: keys, Issuer: testPublicURL})
	if err != nil {
		t.Fatal(err)
	}
	return keys, tokens
}

func newAccEnv(t *testing.T, params auth.Argon2Params) *accEnv {
	t.Helper()
	st := pgtest.New(t)
	sender, srv := smtpSender(t)
	keys, tokens := dbTokens(t, st)
	logger := discardLogger()
	q := queuetest.New(t, st)
	svc := account.NewService(st, auth.NewHasher(params, 0), tokens, sender, q, account.Config{PublicURL: testPublicURL + "/", Logger: logger})
	queuetest.Start(t, q)
	h := newTestHandler(t, Deps{Logger: logger, DB: st, Verifier: NewTokenVerifier(tokens), Accounts: svc})
	const ip = "198.51.100.7"
	return &accEnv{t: t, st: st, q: q, h: h, smtp: srv, svc: svc, tokens: tokens, keys: keys, ip: ip, api: apiClient(t, h, ip)}
}

// mails waits for the queued mail to be sent and returns everything received so far.
func (e *accEnv) mails() []smtptest.Received {
	e.drain()
	return e.smtp.Messages()
}

// drain waits until every queued job (mail) has finished.
func (e *accEnv) drain() {
	e.t.Helper()
	queuetest.Drain(e.t, e.q)
}

var linkRE = regexp.MustCompile(`https://percolate\.test/[^\s]+`)

// lastLink returns the link of the newest mail to addr that starts with prefix.
func (e *accEnv) lastLink(addr, prefix string) string {
	e.t.Helper()
	msgs := e.mails()
	for i := len(msgs) - 1; i >= 0; i-- {
		if len(msgs[i].To) == 0 || !strings.EqualFold(msgs[i].To[0], addr) {
			continue
		}
		text, err := msgs[i].TextBody()
		if err != nil {
			e.t.Fatal(err)
		}
		for _, l := range linkRE.FindAllString(text, -1) {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
	}
	e.t.Fatalf("no mail to %s with a link %s…", addr, prefix)
	return ""
}

func (e *accEnv) mailsTo(addr string) int {
	n := 0
	for _, m := range e.mails() {
		if len(m.To) > 0 && strings.EqualFold(m.To[0], addr) {
			n++
		}
	}
	return n
}

// lastMail returns the newest mail to addr, and false when there is none.
func (e *accEnv) lastMail(addr string) (smtptest.Received, bool) {
	msgs := e.mails()
	for i := len(msgs) - 1; i >= 0; i-- {
		if len(msgs[i].To) > 0 && strings.EqualFold(msgs[i].To[0], addr) {
			return msgs[i], true
		}
	}
	return smtptest.Received{}, false
}

// lastMailSubject returns the subject of the newest mail to addr.
func (e *accEnv) lastMailSubject(addr string) string {
	r, ok := e.lastMail(addr)
	if !ok {
		return ""
	}
	m, err := r.Message()
	if err != nil {
		e.t.Fatal(err)
	}
	return m.Header.Get("Subject")
}

// lastMailText returns the plain text of the newest mail to addr.
func (e *accEnv) lastMailText(addr string) string {
	e.t.Helper()
	r, ok := e.lastMail(addr)
	if !ok {
		e.t.Fatalf("no mail to %s", addr)
	}
	text, err := r.TextBody()
	if err != nil {
		e.t.Fatal(err)
	}
	return text
}

func queryParam(t *testing.T, link, name string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get(name)
}

func (e *accEnv) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.st.Pool().Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
}

func (e *accEnv) count(sql string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.st.Pool().QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
	return n
}

type session struct {
	access, refresh string
	user            api.User
}

// typed is e.api, or for an environment built without one, the typed client of e.h from e.ip.
func (e *accEnv) typed() *apiclient.ClientWithResponses {
	if e.api != nil {
		return e.api
	}
	return e.apiFrom(e.ip)
}

// apiFrom is the typed client of e.h, sending from ip.
func (e *accEnv) apiFrom(ip string) *apiclient.ClientWithResponses {
	return apiClient(e.t, e.h, ip)
}

// accRegistration is a registration whose confirmation matches its password.
func accRegistration(name, email, password string) api.RegisterRequest {
	return api.RegisterRequest{Name: name, Email: openapi_types.Email(email), Password: password, ConfirmPassword: password}
}

// accDetails fails t unless v is the contract's validation error, and returns its details.
func accDetails(t testing.TB, v *api.ValidationError) map[string]string {
	t.Helper()
	if v == nil {
		t.Fatal("the answer is not a validation error")
	}
	if v.Code != api.VALIDATIONERROR {
		t.Fatalf("code = %s, want VALIDATION_ERROR", v.Code)
	}
	return v.Details
}

// accPlain checks that an answer is the plain text want.
func accPlain(t testing.TB, r *http.Response, body []byte, want string) {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("Content-Type = %q, want text/plain", ct)
	}
	if string(body) != want {
		t.Errorf("body = %q, want %q", body, want)
	}
}

// accRetryAfter fails t unless the header carries a Retry-After.
func accRetryAfter(t testing.TB, r *http.Response) {
	t.Helper()
	if r.Header.Get("Retry-After") == "" {
		t.Errorf("no Retry-After header")
	}
}

// signUp registers and verifies an account and signs it in.
// registered registers from e.ip and returns the verification link mailed for it.
func (e *accEnv) registered(name, email, password string) string {
	e.t.Helper()
	res, err := e.typed().RegisterWithResponse(e.t.Context(), accRegistration(name, email, password))
	wantStatus(e.t, res, err, http.StatusCreated)
	return e.lastLink(email, testPublicURL+"/email-verified?t=")
}

func (e *accEnv) signUp(name, email, password string) session {
	e.t.Helper()
	link := e.registered(name, email, password)
	v, err := e.typed().VerifyEmailWithResponse(e.t.Context(), &api.VerifyEmailParams{T: queryParam(e.t, link, "t")})
	wantStatus(e.t, v, err, http.StatusOK)
	return e.login(email, password)
}

func (e *accEnv) login(email, password string) session {
	e.t.Helper()
	res := e.wantLogin(e.t, email, password, http.StatusOK)
	return session{access: res.JSON200.AccessToken, refresh: res.JSON200.RefreshToken, user: res.JSON200.User}
}

// wantLogin signs in from e.ip and fails t unless the answer has the status want.
func (e *accEnv) wantLogin(t testing.TB, email, password string, want int) *apiclient.LoginAnswer {
	t.Helper()
	res, err := e.typed().LoginWithResponse(t.Context(), api.LoginRequest{Email: openapi_types.Email(email), Password: password})
	wantStatus(t, res, err, want)
	return res
}

// wantRefresh refreshes token from e.ip and fails t unless the answer has the status want.
func (e *accEnv) wantRefresh(t testing.TB, token string, want int) *apiclient.RefreshTokensAnswer {
	t.Helper()
	res, err := e.typed().RefreshTokensWithResponse(t.Context(), api.RefreshRequest{RefreshToken: token})
	wantStatus(t, res, err, want)
	return res
}

// wantMe reads /api/auth/me with token and fails t unless the answer has the status want.
func (e *accEnv) wantMe(t testing.TB, token string, want int) *apiclient.GetCurrentUserAnswer {
	t.Helper()
	res, err := e.typed().GetCurrentUserWithResponse(t.Context(), bearer(token))
	wantStatus(t, res, err, want)
	return res
}

// wantVerify follows a verification link's token and fails t unless the answer has the status want.
func (e *accEnv) wantVerify(t testing.TB, token string, want int) *apiclient.VerifyEmailAnswer {
	t.Helper()
	res, err := e.typed().VerifyEmailWithResponse(t.Context(), &api.VerifyEmailParams{T: token})
	wantStatus(t, res, err, want)
	return res
}

func TestRegisterVerifySignIn(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	reg, err := e.api.RegisterWithResponse(t.Context(), accRegistration(" Ada ", "Ada@Example.com", "brew-a-fresh-pot"))
	wantStatus(t, reg, err, http.StatusCreated)
	if reg.JSON201.Message != account.MsgRegistered {
		t.Fatalf("register: message = %q, want %q", reg.JSON201.Message, account.MsgRegistered)
	}
	link := e.lastLink("Ada@Example.com", testPublicURL+"/email-verified?t=")
	token := queryParam(t, link, "t")
	if len(token) < 40 {
		t.Fatalf("weak token in %s", link)
	}
	if n := e.count(`SELECT count(*) FROM email_tokens WHERE token_hash = $1`, []byte(token)); n != 0 {
		t.Fatal("the verification token is stored in clear")
	}

	// Not verified yet: 403 EMAIL_NOT_VERIFIED, and no second mail within the minute.
	r := e.wantLogin(t, "ada@example.com", "brew-a-fresh-pot", http.StatusForbidden)
	if r.JSON403.Code != "EMAIL_NOT_VERIFIED" {
		t.Errorf("unverified login: code = %s, want EMAIL_NOT_VERIFIED", r.JSON403.Code)
	}
	if !strings.Contains(r.JSON403.Message, "inbox") {
		t.Errorf("unverified login: message = %q, want it to mention the inbox", r.JSON403.Message)
	}
	if n := e.mailsTo("Ada@Example.com"); n != 1 {
		t.Fatalf("%d mails, want 1 (a fresh link at most once a minute)", n)
	}
	// A minute later, signing in sends a fresh link.
	e.exec(`UPDATE email_tokens SET created_at = created_at - interval '2 minutes'`)
	e.wantLogin(t, "ada@example.com", "brew-a-fresh-pot", http.StatusForbidden)
	if n := e.mailsTo("Ada@Example.com"); n != 2 {
		t.Fatalf("%d mails, want a fresh link", n)
	}

	v := e.wantVerify(t, token, http.StatusOK)
	accPlain(t, v.HTTPResponse, v.Body, account.MsgVerified)
	v = e.wantVerify(t, token, http.StatusBadRequest)
	accPlain(t, v.HTTPResponse, v.Body, account.MsgVerifyInvalid)

	s := e.login("ADA@example.com", "brew-a-fresh-pot")
	if s.user.Email != "Ada@Example.com" {
		t.Errorf("user email = %q, want Ada@Example.com", s.user.Email)
	}
	if s.user.Name != "Ada" {
		t.Errorf("user name = %q, want Ada (trimmed)", s.user.Name)
	}
	if s.user.Role != api.RoleUSER {
		t.Errorf("user role = %s, want USER", s.user.Role)
	}
	if s.user.IsStudent {
		t.Error("user isStudent = true, want false")
	}
	if s.user.Id == uuid.Nil {
		t.Error("user id is empty")
	}
	me := e.wantMe(t, s.access, http.StatusOK)
	if me.JSON200.Id != s.user.Id {
		t.Errorf("me: id = %s, want %s", me.JSON200.Id, s.user.Id)
	}
	if me.JSON200.Role != api.RoleUSER {
		t.Errorf("me: role = %s, want USER", me.JSON200.Role)
	}
	if m := me.JSON200; m.Email != s.user.Email || m.Name != s.user.Name || m.IsStudent != s.user.IsStudent {
		t.Errorf("me: email %q, name %q, isStudent %v; sign-in said %q, %q, %v",
			m.Email, m.Name, m.IsStudent, s.user.Email, s.user.Name, s.user.IsStudent)
	}
}

// TestVerificationMailIsRetriedAndItsLinkWorks: the relay refuses the first delivery; the
// mail job tries again, and the link that arrives verifies the account. The raw token is
// kept nowhere but in the mail: not in the job's row, not in the database.
func TestVerificationMailIsRetriedAndItsLinkWorks(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.smtp.FailNext(1)
	r, err := e.api.RegisterWithResponse(t.Context(), accRegistration("Ada", "ada@example.com", "brew-a-fresh-pot"))
	wantStatus(t, r, err, http.StatusCreated)
	token := queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/email-verified?t="), "t")
	if n := e.mailsTo("ada@example.com"); n != 1 {
		t.Fatalf("%d mails delivered, want 1", n)
	}
	jobs := queuetest.Jobs(t, e.q, account.MailArgs{}.Kind())
	if len(jobs) != 1 {
		t.Fatalf("%d mail jobs, want 1", len(jobs))
	}
	if jobs[0].State != rivertype.JobStateCompleted {
		t.Errorf("mail job state = %s, want completed", jobs[0].State)
	}
	if jobs[0].Attempt != 2 {
		t.Errorf("mail job attempt = %d, want 2", jobs[0].Attempt)
	}
	if len(jobs[0].Errors) != 1 {
		t.Errorf("mail job errors = %d, want 1", len(jobs[0].Errors))
	}
	if n := e.count(`SELECT count(*) FROM river_job WHERE args::text LIKE '%' || $1 || '%' OR errors::text LIKE '%' || $1 || '%'`, token); n != 0 {
		t.Fatal("the raw token is stored in the job queue")
	}
	if n := e.count(`SELECT count(*) FROM email_tokens WHERE token_hash = $1`, []byte(token)); n != 0 {
		t.Fatal("the raw token is stored in email_tokens")
	}
	v := e.wantVerify(t, token, http.StatusOK)
	if string(v.Body) != account.MsgVerified {
		t.Fatalf("verify with the delivered link: body = %q, want %q", v.Body, account.MsgVerified)
	}
}

func TestVerifyLinkExpires(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	r, err := e.api.RegisterWithResponse(t.Context(), accRegistration("B", "b@example.com", "steamed-milk-42"))
	wantStatus(t, r, err, http.StatusCreated)
	token := queryParam(t, e.lastLink("b@example.com", testPublicURL+"/email-verified"), "t")
	e.exec(`UPDATE email_tokens SET expires_at = now() - interval '1 second'`)
	v := e.wantVerify(t, token, http.StatusBadRequest)
	if string(v.Body) != account.MsgVerifyInvalid {
		t.Fatalf("expired: body = %q, want %q", v.Body, account.MsgVerifyInvalid)
	}
	e.wantVerify(t, "not-a-token", http.StatusBadRequest)
	if n := e.count(`SELECT count(*) FROM users WHERE email_verified_at IS NOT NULL`); n != 0 {
		t.Fatal("an expired link verified the account")
	}
}

// accRegisterRaw registers with a body the typed request cannot carry (an address it would
// refuse or tidy up before sending), and reads the typed answer.
func (e *accEnv) accRegisterRaw(t *testing.T, body map[string]string) *apiclient.RegisterAnswer {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.api.RegisterWithBodyWithResponse(t.Context(), "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	return res
}

func TestRegisterValidation(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	ok := map[string]string{"name": "Ada", "email": "ada@example.com", "password": "brew-a-fresh-pot", "confirmPassword": "brew-a-fresh-pot"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range ok {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	cases := []struct {
		name  string
		body  map[string]string
		field string
	}{
		{"empty name", with("name", "  "), "name"},
		{"long name", with("name", strings.Repeat("n", 101)), "name"},
		{"bad email", with("email", "ada.example.com"), "email"},
		{"email with name", with("email", "Ada <ada@example.com>"), "email"},
		{"long email", with("email", strings.Repeat("a", 250)+"@x.io"), "email"},
		{"short password", with("password", "short1!", "confirmPassword", "short1!"), "password"},
		{"long password", with("password", strings.Repeat("p", 129)), "password"},
		{"password is email", with("password", "ADA@example.com", "confirmPassword", "ADA@example.com"), "password"},
		{"common password", with("password", "Password123", "confirmPassword", "Password123"), "password"},
		{"mismatch", with("confirmPassword", "brew-a-fresh-pod"), "confirmPassword"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.accRegisterRaw(t, c.body)
			wantStatus(t, r, nil, http.StatusBadRequest)
			d := accDetails(t, r.JSON400)
			if d[c.field] == "" {
				t.Errorf("details[%s] is empty: %v", c.field, d)
			}
			if len(d) != 1 {
				t.Errorf("details name %d fields, want only %s: %v", len(d), c.field, d)
			}
		})
	}
	// Every rule of the contract at once: every field reported (whether the confirmation
	// matches is checked once the schema holds).
	r := e.accRegisterRaw(t, map[string]string{"name": "", "email": "x", "password": "1", "confirmPassword": "2"})
	wantStatus(t, r, nil, http.StatusBadRequest)
	d := accDetails(t, r.JSON400)
	for _, field := range []string{"name", "email", "password"} {
		if d[field] == "" {
			t.Errorf("details[%s] is empty: %v", field, d)
		}
	}
	if len(d) != 3 {
		t.Errorf("details name %d fields, want 3: %v", len(d), d)
	}
	if n := e.count(`SELECT count(*) FROM users`); n != 0 {
		t.Fatalf("refused registrations created %d accounts", n)
	}
	if n := len(e.mails()); n != 0 {
		t.Fatalf("refused registrations sent %d mails", n)
	}
	// 128 characters is allowed; characters, not bytes, are counted.
	long := strings.Repeat("é", 128)
	res, err := e.api.RegisterWithResponse(t.Context(), accRegistration("Ada", "ada@example.com", long))
	wantStatus(t, res, err, http.StatusCreated)
}

func TestDuplicateRegistrationChangesNothing(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	fresh, err := e.api.RegisterWithResponse(t.Context(), accRegistration("Someone", "new@example.com", "another-pass-99"))
	wantStatus(t, fresh, err, http.StatusCreated)
	e.signUp("Owner", "owner@example.com", "the-real-owner-pw")
	mailsBefore := e.mailsTo("owner@example.com")
	var hashBefore string
	_ = e.st.Pool().QueryRow(context.Background(), `SELECT password_hash FROM users WHERE email = 'owner@example.com'`).Scan(&hashBefore)

	// Sent raw (the typed client would tidy the address up first): the server trims and folds it.
	dup := e.accRegisterRaw(t, map[string]string{"name": "Intruder", "email": " OWNER@example.com ", "password": "intruder-pass-1", "confirmPassword": "intruder-pass-1"})
	wantStatus(t, dup, nil, http.StatusCreated)
	if dup.JSON201.Message != fresh.JSON201.Message {
		t.Fatalf("duplicate: message = %q, a fresh registration's %q", dup.JSON201.Message, fresh.JSON201.Message)
	}
	if string(dup.Body) != string(fresh.Body) {
		t.Fatalf("duplicate answered %s, a fresh registration %s", dup.Body, fresh.Body)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE lower(email) = 'owner@example.com'`); n != 1 {
		t.Fatalf("%d accounts for one address", n)
	}
	var name, hashAfter string
	_ = e.st.Pool().QueryRow(context.Background(), `SELECT name, password_hash FROM users WHERE email = 'owner@example.com'`).Scan(&name, &hashAfter)
	if name != "Owner" {
		t.Errorf("the duplicate changed the name to %q", name)
	}
	if hashAfter != hashBefore {
		t.Error("the duplicate changed the password hash")
	}
	e.wantLogin(t, "owner@example.com", "intruder-pass-1", http.StatusUnauthorized)
	e.login("owner@example.com", "the-real-owner-pw")
	if e.mailsTo("owner@example.com") != mailsBefore+1 {
		t.Fatal("the owner was not told about the attempt")
	}
}

func TestLoginDoesNotRevealAccounts(t *testing.T) {
	e := newAccEnv(t, auth.DefaultArgon2)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	wrong := e.wantLogin(t, "ada@example.com", "not-her-password", http.StatusUnauthorized)
	unknown := e.wantLogin(t, "nobody@example.com", "not-her-password", http.StatusUnauthorized)
	if string(wrong.Body) != string(unknown.Body) {
		t.Fatalf("wrong password: %s; unknown e-mail: %s", wrong.Body, unknown.Body)
	}
	if wrong.JSON401.Message != "Invalid email or password." {
		t.Fatalf("message = %q, want %q", wrong.JSON401.Message, "Invalid email or password.")
	}
	login := func(email string) (answer, error) {
		return e.api.LoginWithResponse(t.Context(), api.LoginRequest{Email: openapi_types.Email(email), Password: "not-her-password"})
	}
	e.sameTiming(t, "login", 7, func(int) (answer, error) { return login("ada@example.com") },
		func(i int) (answer, error) { return login(fmt.Sprintf("ghost%d@example.com", i)) },
		func(a, b time.Duration) bool { r := float64(b) / float64(a); return r > 0.6 && r < 1.6 })
}

// sameTiming times a and b alternately, in alternating order, n times each, and checks
// their medians with similar. A real difference shows in every measurement, a busy
// neighbour on the machine only in some: so a failed check is measured again, and the test
// fails only when three measurements in a row say the timings differ.
func (e *accEnv) sameTiming(t *testing.T, what string, n int, a, b func(i int) (answer, error), similar func(a, b time.Duration) bool) {
	t.Helper()
	run := func(f func(int) (answer, error), i int) (answer, time.Duration) {
		e.exec(`DELETE FROM rate_limits`)
		// Let the previous call's queued mail go first so it weighs on neither.
		e.drain()
		start := time.Now()
		r, err := f(i)
		d := time.Since(start)
		if err != nil {
			t.Fatalf("%s: the typed client could not read the answer: %v", what, err)
		}
		return r, d
	}
	var ma, mb time.Duration
	for attempt := 0; attempt < 3; attempt++ {
		da, db := make([]time.Duration, n), make([]time.Duration, n)
		var ra, rb answer
		for i := 0; i < n; i++ {
			k := attempt*n + i
			if i%2 == 0 {
				ra, da[i] = run(a, k)
				rb, db[i] = run(b, k)
			} else {
				rb, db[i] = run(b, k)
				ra, da[i] = run(a, k)
			}
		}
		e.drain()
		if ra.StatusCode() != rb.StatusCode() {
			t.Fatalf("%s: statuses differ: %d / %d", what, ra.StatusCode(), rb.StatusCode())
		}
		if bodyOf(ra) != bodyOf(rb) {
			t.Fatalf("%s: bodies differ: %q / %q", what, bodyOf(ra), bodyOf(rb))
		}
		sort.Slice(da, func(x, y int) bool { return da[x] < da[y] })
		sort.Slice(db, func(x, y int) bool { return db[x] < db[y] })
		ma, mb = da[n/2], db[n/2]
		t.Logf("%s: existing account %v, none %v (median of %d)", what, ma, mb, n)
		if similar(ma, mb) {
			return
		}
	}
	t.Fatalf("%s: timing reveals accounts: existing %v, none %v", what, ma, mb)
}

func TestAccessTokenTampering(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	e.wantMe(t, s.access, http.StatusOK)
	valid, err := e.tokens.ParseAccess(context.Background(), s.access)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	base := func() jwt.MapClaims {
		return jwt.MapClaims{
			"iss": testPublicURL, "aud": []string{auth.DefaultAudience}, "sub": valid.UserID.String(),
			"sid": valid.Family.String(), "role": "ADMIN", "iat": now.Unix(), "exp": now.Add(time.Minute).Unix(),
		}
	}
	// Tokens name their key (kid); the control token names the key that signs now.
	signer := e.keys.Signer()
	key := signer.AccessKey()
	signKid := func(m jwt.SigningMethod, key any, kid string, c jwt.MapClaims) string {
		t.Helper()
		tok := jwt.NewWithClaims(m, c)
		if kid != "" {
			tok.Header["kid"] = kid
		}
		s, err := tok.SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sign := func(m jwt.SigningMethod, key any, c jwt.MapClaims) string {
		return signKid(m, key, signer.ID, c)
	}
	// A token we sign ourselves with the right key and claims works: the cases below differ in one thing.
	e.wantMe(t, sign(jwt.SigningMethodHS256, key, base()), http.StatusOK)
	mod := func(k string, v any) jwt.MapClaims {
		c := base()
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}
	none := sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, base())
	parts := strings.Split(s.access, ".")
	cases := map[string]string{
		"alg none":                none,
		"no kid":                  signKid(jwt.SigningMethodHS256, key, "", base()),
		"unknown kid":             signKid(jwt.SigningMethodHS256, key, "0123456789abcdef", base()),
		"wrong key":               sign(jwt.SigningMethodHS256, []byte("0123456789abcdef0123456789abcdef"), base()),
		"HS512":                   sign(jwt.SigningMethodHS512, key, base()),
		"expired":                 sign(jwt.SigningMethodHS256, key, mod("exp", now.Add(-time.Minute).Unix())),
		"no exp":                  sign(jwt.SigningMethodHS256, key, mod("exp", nil)),
		"issued in the future":    sign(jwt.SigningMethodHS256, key, mod("iat", now.Add(time.Hour).Unix())),
		"wrong audience":          sign(jwt.SigningMethodHS256, key, mod("aud", "someone-else")),
		"wrong issuer":            sign(jwt.SigningMethodHS256, key, mod("iss", "https://evil.test")),
		"unknown family":          sign(jwt.SigningMethodHS256, key, mod("sid", uuid.NewString())),
		"another user":            sign(jwt.SigningMethodHS256, key, mod("sub", uuid.NewString())),
		"refresh token as access": s.refresh,
		"payload swapped":         parts[0] + "." + strings.Split(sign(jwt.SigningMethodHS256, key, mod("role", "X")), ".")[1] + "." + parts[2],
		"garbage":                 "not.a.token",
	}
	for name, tok := range cases {
		res, err := e.api.GetCurrentUserWithResponse(t.Context(), bearer(tok))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.StatusCode() != http.StatusUnauthorized {
			t.Errorf("%s: status = %d, want 401: %s", name, res.StatusCode(), res.Body)
		}
	}
}

func TestRefreshRotationReuseAndGrace(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	if n := e.count(`SELECT count(*) FROM refresh_tokens WHERE token_hash = $1`, []byte(s.refresh)); n != 0 {
		t.Fatal("refresh token stored in clear")
	}

	p1 := e.wantRefresh(t, s.refresh, http.StatusOK).JSON200
	if p1.RefreshToken == s.refresh {
		t.Fatal("refresh did not rotate: refreshToken is the one sent")
	}
	if p1.AccessToken == "" {
		t.Fatal("refresh: accessToken is empty")
	}
	e.wantMe(t, p1.AccessToken, http.StatusOK)
	// A second tab refreshing with the same token right away gets the current pair back.
	if r2 := e.wantRefresh(t, s.refresh, http.StatusOK).JSON200; r2.RefreshToken != p1.RefreshToken {
		t.Fatalf("inside the grace window: refreshToken = %q, want the current %q", r2.RefreshToken, p1.RefreshToken)
	}
	// The current token rotates on as usual.
	p3 := e.wantRefresh(t, p1.RefreshToken, http.StatusOK).JSON200
	// Outside the window, replaying a rotated token revokes the whole family.
	e.exec(`UPDATE refresh_tokens SET rotated_at = rotated_at - interval '10 seconds' WHERE rotated_at IS NOT NULL`)
	if r := e.wantRefresh(t, s.refresh, http.StatusUnauthorized); r.JSON401.Code != "INVALID_REFRESH_TOKEN" {
		t.Fatalf("reuse: code = %s, want INVALID_REFRESH_TOKEN", r.JSON401.Code)
	}
	// The family's current token no longer works after reuse, nor its access token.
	e.wantRefresh(t, p3.RefreshToken, http.StatusUnauthorized)
	e.wantMe(t, p3.AccessToken, http.StatusUnauthorized)
	e.wantRefresh(t, "made-up-token", http.StatusUnauthorized)
	// Another login of the same user is untouched.
	s2 := e.login("ada@example.com", "brew-a-fresh-pot")
	e.wantRefresh(t, s2.refresh, http.StatusOK)
}

func TestRefreshFamilyExpiresAbsolutely(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	var exp time.Time
	_ = e.st.Pool().QueryRow(context.Background(), `SELECT expires_at FROM refresh_token_families`).Scan(&exp)
	if d := time.Until(exp); d < 29*24*time.Hour || d > 30*24*time.Hour+time.Minute {
		t.Fatalf("family lives %v", d)
	}
	p := e.wantRefresh(t, s.refresh, http.StatusOK).JSON200
	var exp2 time.Time
	_ = e.st.Pool().QueryRow(context.Background(), `SELECT max(expires_at) FROM refresh_tokens`).Scan(&exp2)
	if !exp2.Equal(exp) {
		t.Fatal("rotation extended the login")
	}
	e.exec(`UPDATE refresh_token_families SET expires_at = now() - interval '1 second'`)
	e.wantRefresh(t, p.RefreshToken, http.StatusUnauthorized)
}

// wantLogout signs out token and fails t unless the answer has the status want.
func (e *accEnv) wantLogout(t testing.TB, token string, want int) {
	t.Helper()
	var edit []apiclient.RequestEditorFn
	if token != "" {
		edit = append(edit, bearer(token))
	}
	res, err := e.api.LogoutWithResponse(t.Context(), edit...)
	wantStatus(t, res, err, want)
}

func TestLogoutRevokesTheFamily(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	b := e.login("ada@example.com", "brew-a-fresh-pot")
	e.wantLogout(t, "", http.StatusUnauthorized)
	e.wantLogout(t, a.access, http.StatusNoContent)
	// Neither the refresh nor the access token of the closed login works.
	e.wantRefresh(t, a.refresh, http.StatusUnauthorized)
	e.wantMe(t, a.access, http.StatusUnauthorized)
	// The other tab/device stays signed in.
	e.wantMe(t, b.access, http.StatusOK)
}

// requestReset asks for a reset mail to email from e.ip.
func (e *accEnv) requestReset(email string) *apiclient.RequestPasswordResetAnswer {
	return e.requestResetFrom(e.ip, email)
}

func (e *accEnv) requestResetFrom(ip, email string) *apiclient.RequestPasswordResetAnswer {
	e.t.Helper()
	res, err := e.apiFrom(ip).RequestPasswordResetWithResponse(e.t.Context(), &api.RequestPasswordResetParams{Email: openapi_types.Email(email)})
	if err != nil {
		e.t.Fatalf("reset mail for %s: %v", email, err)
	}
	return res
}

// reset sets a new password with a reset token from e.ip.
func (e *accEnv) reset(token, pw, confirm string) *apiclient.ResetPasswordAnswer {
	return e.resetFrom(e.ip, token, pw, confirm)
}

func (e *accEnv) resetFrom(ip, token, pw, confirm string) *apiclient.ResetPasswordAnswer {
	e.t.Helper()
	res, err := e.apiFrom(ip).ResetPasswordWithResponse(e.t.Context(), &api.ResetPasswordParams{Token: token}, api.ResetPasswordRequest{Password: pw, ConfirmPassword: confirm})
	if err != nil {
		e.t.Fatalf("reset: %v", err)
	}
	return res
}

func TestPasswordReset(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	other := e.login("ada@example.com", "brew-a-fresh-pot")
	mailsBefore := len(e.mails())

	unknown := e.requestReset("nobody@example.com")
	known := e.requestReset("ADA@example.com")
	want := "If an account exists for that email, we've sent a link to reset your password."
	wantStatus(t, unknown, nil, http.StatusOK)
	wantStatus(t, known, nil, http.StatusOK)
	if string(unknown.Body) != want {
		t.Errorf("unknown address: body = %q, want %q", unknown.Body, want)
	}
	if string(known.Body) != want {
		t.Errorf("known address: body = %q, want %q", known.Body, want)
	}
	if got := len(e.mails()); got != mailsBefore+1 {
		t.Fatalf("%d new mails, want exactly one (to the account)", got-mailsBefore)
	}
	bad := e.requestReset("not-an-address")
	wantStatus(t, bad, nil, http.StatusBadRequest)
	if ct := bad.HTTPResponse.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("bad address: Content-Type = %q, want text/plain", ct)
	}
	token := queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/reset?token="), "token")

	for _, c := range []struct{ pw, confirm, want string }{
		{"new-secret-pw-1", "new-secret-pw-2", "Passwords do not match."},
		{"short", "short", "Must be at least 8 characters."},
		{"ada@example.com", "ada@example.com", "Your password must not be your email address."},
		{"qwertyuiop", "qwertyuiop", "This password is too common. Please choose one that is harder to guess."},
	} {
		r := e.reset(token, c.pw, c.confirm)
		if r.StatusCode() != http.StatusBadRequest {
			t.Errorf("reset %q/%q: status = %d, want 400", c.pw, c.confirm, r.StatusCode())
		}
		if string(r.Body) != c.want {
			t.Errorf("reset %q/%q: body = %q, want %q", c.pw, c.confirm, r.Body, c.want)
		}
	}
	r := e.reset("forged-token", "new-secret-pw-1", "new-secret-pw-1")
	wantStatus(t, r, nil, http.StatusBadRequest)
	if string(r.Body) != account.MsgResetInvalid {
		t.Fatalf("forged token: body = %q, want %q", r.Body, account.MsgResetInvalid)
	}
	r = e.reset(token, "new-secret-pw-1", "new-secret-pw-1")
	wantStatus(t, r, nil, http.StatusOK)
	if string(r.Body) != account.MsgResetDone {
		t.Fatalf("reset: body = %q, want %q", r.Body, account.MsgResetDone)
	}
	r = e.reset(token, "new-secret-pw-2", "new-secret-pw-2")
	wantStatus(t, r, nil, http.StatusBadRequest)
	if string(r.Body) != account.MsgResetInvalid {
		t.Fatalf("second use: body = %q, want %q", r.Body, account.MsgResetInvalid)
	}
	// Every login of the user is closed.
	for _, s := range []session{a, other} {
		e.wantRefresh(t, s.refresh, http.StatusUnauthorized)
		e.wantMe(t, s.access, http.StatusUnauthorized)
	}
	e.wantLogin(t, "ada@example.com", "brew-a-fresh-pot", http.StatusUnauthorized)
	e.login("ada@example.com", "new-secret-pw-1")

	// Reset links live an hour.
	e.requestReset("ada@example.com")
	token = queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/reset?token="), "token")
	e.exec(`UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset'`)
	r = e.reset(token, "new-secret-pw-3", "new-secret-pw-3")
	wantStatus(t, r, nil, http.StatusBadRequest)
	if string(r.Body) != account.MsgResetInvalid {
		t.Fatalf("expired token: body = %q, want %q", r.Body, account.MsgResetInvalid)
	}
}

func TestEmailTokenLifetimes(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	e.requestReset("ada@example.com")
	e.drain()
	for purpose, want := range map[string]float64{"verify": 24 * 3600, "reset": 3600} {
		var secs float64
		if err := e.st.Pool().QueryRow(context.Background(), `SELECT EXTRACT(EPOCH FROM max(expires_at - created_at))::float8 FROM email_tokens WHERE purpose = $1`, purpose).Scan(&secs); err != nil {
			t.Fatal(err)
		}
		if secs < want-5 || secs > want+5 {
			t.Errorf("%s token lives %vs, want %vs", purpose, secs, want)
		}
	}
}

// loginFrom signs in from ip and returns the typed answer.
func (e *accEnv) loginFrom(t testing.TB, ip, email, password string) *apiclient.LoginAnswer {
	t.Helper()
	res, err := e.apiFrom(ip).LoginWithResponse(t.Context(), api.LoginRequest{Email: openapi_types.Email(email), Password: password})
	if err != nil {
		t.Fatalf("login from %s: %v", ip, err)
	}
	return res
}

// registerFrom registers from ip and returns the typed answer.
func (e *accEnv) registerFrom(t testing.TB, ip, name, email, password string) *apiclient.RegisterAnswer {
	t.Helper()
	res, err := e.apiFrom(ip).RegisterWithResponse(t.Context(), accRegistration(name, email, password))
	if err != nil {
		t.Fatalf("register from %s: %v", ip, err)
	}
	return res
}

func TestRateLimits(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")

	t.Run("failed logins per account and address", func(t *testing.T) {
		for i := 0; i < 10; i++ {
			if r := e.loginFrom(t, e.ip, "ada@example.com", "wrong-password"); r.StatusCode() != http.StatusUnauthorized {
				t.Fatalf("attempt %d: status = %d, want 401: %s", i+1, r.StatusCode(), r.Body)
			}
		}
		r := e.loginFrom(t, e.ip, "ada@example.com", "brew-a-fresh-pot")
		wantStatus(t, r, nil, http.StatusTooManyRequests)
		if r.JSON429.Code != "RATE_LIMITED" {
			t.Fatalf("11th: code = %s, want RATE_LIMITED", r.JSON429.Code)
		}
		if ra := r.Headers429.RetryAfter; ra == nil || *ra < 1 || *ra > 15*60 {
			t.Fatalf("11th: Retry-After = %q, want 1 to 900 seconds", r.HTTPResponse.Header.Get("Retry-After"))
		}
		// The real owner can still reset the password, and that lifts the lock.
		e.requestReset("ada@example.com")
		token := queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/reset?token="), "token")
		wantStatus(t, e.reset(token, "fresh-start-pw-9", "fresh-start-pw-9"), nil, http.StatusOK)
		e.login("ada@example.com", "fresh-start-pw-9")
	})

	t.Run("failed logins per address", func(t *testing.T) {
		for i := 0; i < 100; i++ {
			if r := e.loginFrom(t, "192.0.2.99", fmt.Sprintf("guess%d@example.com", i), "x"); r.StatusCode() != http.StatusUnauthorized {
				t.Fatalf("attempt %d: status = %d, want 401", i+1, r.StatusCode())
			}
		}
		r := e.loginFrom(t, "192.0.2.99", "guess@example.com", "x")
		wantStatus(t, r, nil, http.StatusTooManyRequests)
		if r.Headers429.RetryAfter == nil {
			t.Fatal("101st: no Retry-After")
		}
		wantStatus(t, e.loginFrom(t, "192.0.2.98", "guess@example.com", "x"), nil, http.StatusUnauthorized)
	})

	t.Run("reset mails per e-mail", func(t *testing.T) {
		for i := 0; i < 3; i++ {
			if r := e.requestResetFrom(fmt.Sprintf("192.0.2.%d", 50+i), "limit@example.com"); r.StatusCode() != http.StatusOK {
				t.Fatalf("request %d: status = %d, want 200", i+1, r.StatusCode())
			}
		}
		r := e.requestResetFrom("192.0.2.60", "LIMIT@example.com")
		wantStatus(t, r, nil, http.StatusTooManyRequests)
		accRetryAfter(t, r.HTTPResponse)
		accPlain(t, r.HTTPResponse, r.Body, account.MsgMailLimited)
	})

	t.Run("reset mails per address", func(t *testing.T) {
		for i := 0; i < 20; i++ {
			if r := e.requestResetFrom("192.0.2.77", fmt.Sprintf("a%d@example.com", i)); r.StatusCode() != http.StatusOK {
				t.Fatalf("request %d: status = %d, want 200", i+1, r.StatusCode())
			}
		}
		wantStatus(t, e.requestResetFrom("192.0.2.77", "b@example.com"), nil, http.StatusTooManyRequests)
	})

	t.Run("registrations per address", func(t *testing.T) {
		for i := 0; i < 20; i++ {
			if r := e.registerFrom(t, "192.0.2.88", "N", fmt.Sprintf("r%d@example.com", i), "brew-a-fresh-pot"); r.StatusCode() != http.StatusCreated {
				t.Fatalf("registration %d: status = %d, want 201: %s", i+1, r.StatusCode(), r.Body)
			}
		}
		r := e.registerFrom(t, "192.0.2.88", "N", "r99@example.com", "brew-a-fresh-pot")
		wantStatus(t, r, nil, http.StatusTooManyRequests)
		if r.Headers429.RetryAfter == nil {
			t.Error("21st: no Retry-After")
		}
		if r.JSON429.Code != "RATE_LIMITED" {
			t.Errorf("21st: code = %s, want RATE_LIMITED", r.JSON429.Code)
		}
		if n := e.count(`SELECT count(*) FROM users WHERE email = 'r99@example.com'`); n != 0 {
			t.Fatal("a limited registration created an account")
		}
	})
}

func TestProfile(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	ctx := t.Context()
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	b := e.signUp("Bo", "bo@example.com", "steamed-milk-42")
	anon, err := e.api.GetProfileWithResponse(ctx)
	wantStatus(t, anon, err, http.StatusUnauthorized)
	// The contract check of every answer fails a profile without age (it must be null).
	res, err := e.api.GetProfileWithResponse(ctx, bearer(a.access))
	wantStatus(t, res, err, http.StatusOK)
	want := api.Profile{Name: "Ada", Email: "ada@example.com", Role: api.RoleUSER, MemoryEnabled: true}
	if got := *res.JSON200; got != want {
		t.Fatalf("profile = %+v, want %+v (no age, empty texts, memory on by default)", got, want)
	}

	// put sends a body as written: the typed request cannot carry null, two fields, a wrong
	// type or an unknown field.
	put := func(body string) *apiclient.UpdateProfileAnswer {
		t.Helper()
		res, err := e.api.UpdateProfileWithBodyWithResponse(ctx, "application/json", strings.NewReader(body), bearer(a.access))
		if err != nil {
			t.Fatalf("%.30s: %v", body, err)
		}
		return res
	}
	update := func(u api.ProfileUpdate) *api.Profile {
		t.Helper()
		res, err := e.api.UpdateProfileWithResponse(ctx, u, bearer(a.access))
		wantStatus(t, res, err, http.StatusOK)
		return res.JSON200
	}
	if p := update(api.ProfileUpdate{Age: new(30)}); p.Age == nil || *p.Age != 30 {
		t.Fatalf("age = %v, want 30", p.Age)
	}
	p := update(api.ProfileUpdate{FocusAreas: new("  exams and sleep ")})
	if p.FocusAreas != "exams and sleep" {
		t.Errorf("focusAreas = %q, want it trimmed", p.FocusAreas)
	}
	if p.Age == nil || *p.Age != 30 {
		t.Errorf("after focusAreas: age = %v, want 30 kept", p.Age)
	}
	update(api.ProfileUpdate{PrimaryConcerns: new(strings.Repeat("é", 250))})
	if p := update(api.ProfileUpdate{SensitiveTopics: new("family")}); p.SensitiveTopics != "family" {
		t.Fatalf("sensitiveTopics = %q, want family", p.SensitiveTopics)
	}
	for body, field := range map[string]string{
		`{"age": 12}`:  "age",
		`{"age": 121}`: "age",
		`{"age": 0}`:   "age",
		`{"focusAreas": "` + strings.Repeat("x", 251) + `"}`: "focusAreas",
		`{"sensitiveTopics": 5}`:                             "sensitiveTopics",
	} {
		r := put(body)
		wantStatus(t, r, nil, http.StatusBadRequest)
		if d := accDetails(t, r.JSON400); d[field] == "" {
			t.Fatalf("%.30s: details[%s] is empty: %v", body, field, d)
		}
	}
	if d := accDetails(t, put(`{"age": 12}`).JSON400); d["age"] != "Must be a number from 13 to 120." {
		t.Fatalf("under 13: details[age] = %q", d["age"])
	}
	for _, body := range []string{`{}`, `{"age": 20, "focusAreas": "x"}`, `{"email": "x@y.z"}`} {
		if r := put(body); r.StatusCode() != http.StatusBadRequest {
			t.Fatalf("%s: status = %d, want 400", body, r.StatusCode())
		}
	}
	r := put(`{"age": null}`)
	wantStatus(t, r, nil, http.StatusOK)
	if r.JSON200.Age != nil {
		t.Fatalf("age null: age = %d, want null", *r.JSON200.Age)
	}
	p = update(api.ProfileUpdate{MemoryEnabled: new(false)})
	if p.MemoryEnabled {
		t.Error("memoryEnabled = true, want false")
	}
	if p.SensitiveTopics != "family" {
		t.Errorf("after memoryEnabled: sensitiveTopics = %q, want family kept", p.SensitiveTopics)
	}
	wantStatus(t, put(`{"memoryEnabled": "no"}`), nil, http.StatusBadRequest)
	// A new account has not been onboarded; finishing or skipping the onboarding records it.
	if p = update(api.ProfileUpdate{Onboarded: new(true)}); !p.Onboarded || p.SensitiveTopics != "family" || p.MemoryEnabled {
		t.Errorf("after onboarded: %+v, want onboarded and the rest kept", p)
	}
	wantStatus(t, put(`{"onboarded": "yes"}`), nil, http.StatusBadRequest)
	// Bo's profile is untouched.
	res, err = e.api.GetProfileWithResponse(ctx, bearer(b.access))
	wantStatus(t, res, err, http.StatusOK)
	want = api.Profile{Name: "Bo", Email: "bo@example.com", Role: api.RoleUSER, MemoryEnabled: true}
	if got := *res.JSON200; got != want {
		t.Fatalf("another user's profile changed: %+v, want %+v", got, want)
	}
}

// changePassword changes the password of the login token and returns the typed answer.
func (e *accEnv) changePassword(t testing.TB, token, cur, nw, confirm string) *apiclient.ChangePasswordAnswer {
	t.Helper()
	var edit []apiclient.RequestEditorFn
	if token != "" {
		edit = append(edit, bearer(token))
	}
	res, err := e.api.ChangePasswordWithResponse(t.Context(), api.PasswordChangeRequest{CurrentPassword: cur, NewPassword: nw, ConfirmNewPassword: confirm}, edit...)
	if err != nil {
		t.Fatalf("change password: %v", err)
	}
	return res
}

func TestChangePassword(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	other := e.login("ada@example.com", "brew-a-fresh-pot")
	bo := e.signUp("Bo", "bo@example.com", "steamed-milk-42")
	for _, c := range []struct{ cur, nw, confirm, field string }{
		{"wrong-current-pw", "roasted-beans-77", "roasted-beans-77", "currentPassword"},
		{"brew-a-fresh-pot", "short", "short", "newPassword"},
		{"brew-a-fresh-pot", "12345678", "12345678", "newPassword"},
		{"brew-a-fresh-pot", "ADA@EXAMPLE.COM", "ADA@EXAMPLE.COM", "newPassword"},
		{"brew-a-fresh-pot", "roasted-beans-77", "roasted-beans-78", "confirmNewPassword"},
	} {
		r := e.changePassword(t, a.access, c.cur, c.nw, c.confirm)
		if r.StatusCode() != http.StatusBadRequest {
			t.Fatalf("%+v: status = %d, want 400: %s", c, r.StatusCode(), r.Body)
		}
		if d := accDetails(t, r.JSON400); d[c.field] == "" {
			t.Fatalf("%+v: details[%s] is empty: %v", c, c.field, d)
		}
	}
	wantStatus(t, e.changePassword(t, "", "a", "b", "b"), nil, http.StatusUnauthorized)
	r := e.changePassword(t, a.access, "brew-a-fresh-pot", "roasted-beans-77", "roasted-beans-77")
	wantStatus(t, r, nil, http.StatusOK)
	if r.JSON200.Message == "" {
		t.Fatal("change: message is empty")
	}
	// The caller stays signed in; the other login of the user is closed; Bo is untouched.
	e.wantMe(t, a.access, http.StatusOK)
	e.wantRefresh(t, a.refresh, http.StatusOK)
	e.wantRefresh(t, other.refresh, http.StatusUnauthorized)
	e.wantRefresh(t, bo.refresh, http.StatusOK)
	e.wantLogin(t, "ada@example.com", "brew-a-fresh-pot", http.StatusUnauthorized)
	e.login("ada@example.com", "roasted-beans-77")
	e.login("bo@example.com", "steamed-milk-42")
}

func TestChangePasswordIsRateLimited(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	for i := 0; i < 10; i++ {
		e.changePassword(t, a.access, "guess", "roasted-beans-77", "roasted-beans-77")
	}
	r := e.changePassword(t, a.access, "brew-a-fresh-pot", "roasted-beans-77", "roasted-beans-77")
	wantStatus(t, r, nil, http.StatusTooManyRequests)
	if r.Headers429.RetryAfter == nil {
		t.Fatal("11th: no Retry-After")
	}
}

func TestDeleteAccountDeletesEverything(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	b := e.signUp("Bo", "bo@example.com", "steamed-milk-42")
	e.requestReset("ada@example.com")
	e.requestReset("bo@example.com")
	e.drain()
	for _, u := range []string{"ada@example.com", "bo@example.com"} {
		e.exec(`WITH u AS (SELECT id FROM users WHERE email = $1),
			s AS (INSERT INTO chat_sessions (user_id, title) SELECT id, 'talk' FROM u RETURNING id, user_id)
			INSERT INTO messages (session_id, user_id, role, content) SELECT id, user_id, 'user', 'hello' FROM s`, u)
		e.exec(`INSERT INTO external_identities (user_id, provider, subject) SELECT id, 'google', $1 FROM users WHERE email = $1`, u)
		e.exec(`INSERT INTO usage_counters (user_id, day, kind, count) SELECT id, current_date, 'messages', 3 FROM users WHERE email = $1`, u)
		e.exec(`INSERT INTO weekly_reports (user_id, week_start, content) SELECT id, date_trunc('week', now())::date, '{}' FROM users WHERE email = $1`, u)
		e.exec(`INSERT INTO login_codes (code_hash, user_id, expires_at) SELECT sha256(convert_to(email, 'UTF8')), id, now() + interval '1 minute' FROM users WHERE email = $1`, u)
	}
	// A mail asked for by address, typed in other case, still waiting to go.
	if _, err := e.q.Client().Insert(t.Context(), account.MailArgs{Mail: "login-link", Email: "ADA@Example.com"},
		&river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	tables := []string{"refresh_token_families", "refresh_tokens", "email_tokens", "chat_sessions", "messages", "external_identities", "usage_counters", "weekly_reports", "login_codes"}
	countsOf := func(userID uuid.UUID) map[string]int {
		m := map[string]int{}
		for _, tbl := range tables {
			m[tbl] = e.count(`SELECT count(*) FROM `+tbl+` WHERE user_id = $1`, userID)
		}
		// Jobs, finished or waiting, that name the user by id or address.
		m["river_job"] = e.count(`SELECT count(*) FROM river_job WHERE args->>'userId' = $1::uuid::text
			OR lower(args->>'email') = (SELECT lower(email) FROM users WHERE id = $1::uuid)`, userID)
		return m
	}
	bBefore := countsOf(b.user.Id)
	for tbl, n := range countsOf(a.user.Id) {
		if n == 0 {
			t.Fatalf("setup: no %s rows for Ada", tbl)
		}
	}

	del := func(token string) *apiclient.DeleteAccountAnswer {
		t.Helper()
		var edit []apiclient.RequestEditorFn
		if token != "" {
			edit = append(edit, bearer(token))
		}
		res, err := e.api.DeleteAccountWithResponse(t.Context(), edit...)
		if err != nil {
			t.Fatalf("delete: %v", err)
		}
		return res
	}
	wantStatus(t, del(""), nil, http.StatusUnauthorized)
	wantStatus(t, del(a.access), nil, http.StatusNoContent)
	if n := e.count(`SELECT count(*) FROM users WHERE id = $1`, a.user.Id); n != 0 {
		t.Fatal("the account is still there")
	}
	if n := e.count(`SELECT count(*) FROM river_job WHERE args->>'userId' = $1::uuid::text OR lower(args->>'email') = 'ada@example.com'`, a.user.Id); n != 0 {
		t.Errorf("%d jobs still name the deleted account", n)
	}
	for tbl, n := range countsOf(a.user.Id) {
		if n != 0 {
			t.Errorf("%d %s rows left", n, tbl)
		}
	}
	for tbl, n := range countsOf(b.user.Id) {
		if n != bBefore[tbl] {
			t.Errorf("Bo's %s: %d rows, had %d", tbl, n, bBefore[tbl])
		}
	}
	// The deleted user's tokens and password no longer work; Bo's still do.
	e.wantMe(t, a.access, http.StatusUnauthorized)
	e.wantRefresh(t, a.refresh, http.StatusUnauthorized)
	e.wantLogin(t, "ada@example.com", "brew-a-fresh-pot", http.StatusUnauthorized)
	res, err := e.api.GetProfileWithResponse(t.Context(), bearer(b.access))
	wantStatus(t, res, err, http.StatusOK)
}

func TestResetAndRegisterDoNotRevealAccounts(t *testing.T) {
	e := newAccEnv(t, auth.DefaultArgon2)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	ctx := t.Context()
	similar := func(a, b time.Duration) bool {
		d, tol := a-b, max(30*time.Millisecond, min(a, b)*2/5)
		return d <= tol && d >= -tol
	}
	resetMail := func(email string) (answer, error) {
		return e.api.RequestPasswordResetWithResponse(ctx, &api.RequestPasswordResetParams{Email: openapi_types.Email(email)})
	}
	e.sameTiming(t, "reset mail", 9,
		func(int) (answer, error) { return resetMail("ada@example.com") },
		func(i int) (answer, error) { return resetMail(fmt.Sprintf("ghost%d@example.com", i)) }, similar)
	link := func(email string) (answer, error) {
		return e.api.RequestLoginLinkWithResponse(ctx, api.LoginLinkRequest{Email: openapi_types.Email(email)})
	}
	e.sameTiming(t, "sign-in link", 9,
		func(int) (answer, error) { return link("ada@example.com") },
		func(i int) (answer, error) { return link(fmt.Sprintf("ghost%d@example.com", i)) }, similar)
	reg := func(email string) (answer, error) {
		return e.api.RegisterWithResponse(ctx, accRegistration("X", email, "brew-a-fresh-pot"))
	}
	e.sameTiming(t, "register", 9,
		func(int) (answer, error) { return reg("ada@example.com") },
		func(i int) (answer, error) { return reg(fmt.Sprintf("fresh%d@example.com", i)) }, similar)
}

func TestConcurrentRefreshesShareTheNewPair(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	const tabs = 4
	type refreshed struct {
		res *apiclient.RefreshTokensAnswer
		err error
	}
	out := make(chan refreshed, tabs)
	for i := 0; i < tabs; i++ {
		go func() {
			res, err := e.api.RefreshTokensWithResponse(t.Context(), api.RefreshRequest{RefreshToken: s.refresh})
			out <- refreshed{res, err}
		}()
	}
	var first string
	for i := 0; i < tabs; i++ {
		r := <-out
		wantStatus(t, r.res, r.err, http.StatusOK)
		tok := r.res.JSON200.RefreshToken
		if first == "" {
			first = tok
		} else if tok != first {
			t.Fatalf("tab %d: refreshToken = %q, another tab got %q", i, tok, first)
		}
	}
	e.wantRefresh(t, first, http.StatusOK)
}

// TestResendVerification: a new link goes to an unverified account (at most one a minute),
// and the answer is the same for a verified account and for no account at all.
func TestResendVerification(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	reg, err := e.api.RegisterWithResponse(t.Context(), accRegistration("Ada", "ada@example.com", "brew-a-fresh-pot"))
	wantStatus(t, reg, err, http.StatusCreated)
	e.lastLink("ada@example.com", testPublicURL+"/email-verified?t=")
	e.signUp("Bo", "bo@example.com", "steamed-milk-42")
	before := len(e.mails())

	resend := func(email string) {
		t.Helper()
		r, err := e.api.ResendVerificationWithResponse(t.Context(), api.ResendVerificationRequest{Email: openapi_types.Email(email)})
		wantStatus(t, r, err, http.StatusOK)
		if r.JSON200.Message != account.MsgResent {
			t.Fatalf("resend to %s: message = %q, want %q", email, r.JSON200.Message, account.MsgResent)
		}
	}
	// Within the minute of the first link: the same answer, no second mail.
	resend("ada@example.com")
	queuetest.Drain(t, e.q)
	if n := e.mailsTo("ada@example.com"); n != 1 {
		t.Fatalf("%d mails to ada within a minute, want 1", n)
	}
	e.exec(`UPDATE email_tokens SET created_at = created_at - interval '2 minutes'`)
	resend("ADA@example.com")
	link := e.lastLink("ada@example.com", testPublicURL+"/email-verified?t=")
	if n := e.mailsTo("ada@example.com"); n != 2 {
		t.Fatalf("%d mails to ada, want a fresh link", n)
	}
	e.wantVerify(t, queryParam(t, link, "t"), http.StatusOK)

	// A verified account and an unknown address get the same answer and no mail.
	resend("bo@example.com")
	resend("nobody@example.com")
	queuetest.Drain(t, e.q)
	if got := len(e.mails()) - before; got != 1 {
		t.Fatalf("%d mails since the sign-ups, want only ada's fresh link", got)
	}
	// Sent raw: the typed request refuses a malformed address before sending.
	r, err := e.api.ResendVerificationWithBodyWithResponse(t.Context(), "application/json", strings.NewReader(`{"email": "not-an-address"}`))
	wantStatus(t, r, err, http.StatusBadRequest)
	if d := accDetails(t, r.JSON400); d["email"] == "" {
		t.Fatalf("a bad address: details[email] is empty: %v", d)
	}
}
