package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
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

func newAccEnv(t *testing.T, params auth.Argon2Params) *accEnv {
	t.Helper()
	st := pgtest.New(t)
	srv := smtptest.Start(t)
	host, port, _ := net.SplitHostPort(srv.Addr())
	p, _ := strconv.Atoi(port)
	sender, err := mail.New(config.Mail{SMTP: config.SMTP{Host: host, Port: p}, From: "Percolate <no-reply@percolate.test>"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The signing keys in the database, as the app keeps them.
	keys, err := auth.OpenKeyring(context.Background(), st, auth.KeyringConfig{})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens(st, auth.Config{Keys: keys, Issuer: testPublicURL})
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	q := queuetest.New(t, st)
	svc := account.NewService(st, auth.NewHasher(params, 0), tokens, sender, q, account.Config{PublicURL: testPublicURL + "/", Logger: logger})
	queuetest.Start(t, q)
	h := newTestHandler(t, Deps{Logger: logger, DB: st, Verifier: NewTokenVerifier(tokens), Accounts: svc})
	const ip = "198.51.100.7"
	return &accEnv{t: t, st: st, q: q, h: h, smtp: srv, svc: svc, tokens: tokens, keys: keys, ip: ip, api: apiClient(t, h, ip)}
}

type reply struct {
	code   int
	body   string
	header http.Header
}

func (r reply) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("body is not JSON: %v: %q", err, r.body)
	}
	return m
}

func (r reply) details(t *testing.T) map[string]any {
	t.Helper()
	m := r.json(t)
	if m["code"] != "VALIDATION_ERROR" {
		t.Fatalf("want VALIDATION_ERROR, got %d %s", r.code, r.body)
	}
	d, _ := m["details"].(map[string]any)
	return d
}

// call sends a request from e.ip; token, when set, is sent as a bearer token.
func (e *accEnv) call(method, target, token string, body any) reply {
	return e.callFrom(e.ip, method, target, token, body)
}

func (e *accEnv) callFrom(ip, method, target, token string, body any) reply {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = strings.NewReader(string(b))
	}
	req := httptest.NewRequest(method, target, rd)
	req.RemoteAddr = ip + ":40000"
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return reply{code: rec.Code, body: rec.Body.String(), header: rec.Header()}
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

// lastMailSubject returns the subject of the newest mail to addr.
func (e *accEnv) lastMailSubject(addr string) string {
	msgs := e.mails()
	for i := len(msgs) - 1; i >= 0; i-- {
		if len(msgs[i].To) > 0 && strings.EqualFold(msgs[i].To[0], addr) {
			m, err := msgs[i].Message()
			if err != nil {
				e.t.Fatal(err)
			}
			return m.Header.Get("Subject")
		}
	}
	return ""
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
	user            map[string]any
}

// signUp registers and verifies an account and signs it in.
func (e *accEnv) signUp(name, email, password string) session {
	e.t.Helper()
	r := e.call("POST", "/api/auth/register", "", map[string]string{"name": name, "email": email, "password": password, "confirmPassword": password})
	if r.code != http.StatusCreated {
		e.t.Fatalf("register: %d %s", r.code, r.body)
	}
	link := e.lastLink(email, testPublicURL+"/email-verified?t=")
	if r := e.call("GET", "/api/auth/verify?t="+url.QueryEscape(queryParam(e.t, link, "t")), "", nil); r.code != http.StatusOK {
		e.t.Fatalf("verify: %d %s", r.code, r.body)
	}
	return e.login(email, password)
}

func (e *accEnv) login(email, password string) session {
	e.t.Helper()
	r := e.call("POST", "/api/auth/login", "", map[string]string{"email": email, "password": password})
	if r.code != http.StatusOK {
		e.t.Fatalf("login %s: %d %s", email, r.code, r.body)
	}
	m := r.json(e.t)
	user, _ := m["user"].(map[string]any)
	return session{access: m["accessToken"].(string), refresh: m["refreshToken"].(string), user: user}
}

func (e *accEnv) refresh(token string) reply {
	return e.call("POST", "/api/auth/refresh", "", map[string]string{"refreshToken": token})
}

func TestRegisterVerifySignIn(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	r := e.call("POST", "/api/auth/register", "", map[string]string{"name": " Ada ", "email": "Ada@Example.com", "password": "brew-a-fresh-pot", "confirmPassword": "brew-a-fresh-pot"})
	if r.code != http.StatusCreated || r.json(t)["message"] != account.MsgRegistered {
		t.Fatalf("register: %d %s", r.code, r.body)
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
	r = e.call("POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"})
	if m := r.json(t); r.code != http.StatusForbidden || m["code"] != "EMAIL_NOT_VERIFIED" || !strings.Contains(m["message"].(string), "inbox") {
		t.Fatalf("unverified login: %d %s", r.code, r.body)
	}
	if n := e.mailsTo("Ada@Example.com"); n != 1 {
		t.Fatalf("%d mails, want 1 (a fresh link at most once a minute)", n)
	}
	// A minute later, signing in sends a fresh link.
	e.exec(`UPDATE email_tokens SET created_at = created_at - interval '2 minutes'`)
	e.call("POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"})
	if n := e.mailsTo("Ada@Example.com"); n != 2 {
		t.Fatalf("%d mails, want a fresh link", n)
	}

	r = e.call("GET", "/api/auth/verify?t="+token, "", nil)
	if r.code != http.StatusOK || r.body != account.MsgVerified || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("verify: %d %q", r.code, r.body)
	}
	r = e.call("GET", "/api/auth/verify?t="+token, "", nil)
	if r.code != http.StatusBadRequest || r.body != "This verification link is invalid or has expired." {
		t.Fatalf("second use: %d %q", r.code, r.body)
	}

	s := e.login("ADA@example.com", "brew-a-fresh-pot")
	if s.user["email"] != "Ada@Example.com" || s.user["name"] != "Ada" || s.user["role"] != "USER" || s.user["isStudent"] != false || s.user["id"] == "" {
		t.Fatalf("user %v", s.user)
	}
	r = e.call("GET", "/api/auth/me", s.access, nil)
	if m := r.json(t); r.code != http.StatusOK || m["id"] != s.user["id"] || m["role"] != "USER" {
		t.Fatalf("me: %d %s", r.code, r.body)
	}
}

// TestVerificationMailIsRetriedAndItsLinkWorks: the relay refuses the first delivery; the
// mail job tries again, and the link that arrives verifies the account. The raw token is
// kept nowhere but in the mail: not in the job's row, not in the database.
func TestVerificationMailIsRetriedAndItsLinkWorks(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.smtp.FailNext(1)
	r := e.call("POST", "/api/auth/register", "", map[string]string{"name": "Ada", "email": "ada@example.com", "password": "brew-a-fresh-pot", "confirmPassword": "brew-a-fresh-pot"})
	if r.code != http.StatusCreated {
		t.Fatalf("register: %d %s", r.code, r.body)
	}
	token := queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/email-verified?t="), "t")
	if n := e.mailsTo("ada@example.com"); n != 1 {
		t.Fatalf("%d mails delivered, want 1", n)
	}
	jobs := queuetest.Jobs(t, e.q, account.MailArgs{}.Kind())
	if len(jobs) != 1 || jobs[0].State != rivertype.JobStateCompleted || jobs[0].Attempt != 2 || len(jobs[0].Errors) != 1 {
		t.Fatalf("mail jobs %+v, want one completed at its second attempt after one error", jobs)
	}
	if n := e.count(`SELECT count(*) FROM river_job WHERE args::text LIKE '%' || $1 || '%' OR errors::text LIKE '%' || $1 || '%'`, token); n != 0 {
		t.Fatal("the raw token is stored in the job queue")
	}
	if n := e.count(`SELECT count(*) FROM email_tokens WHERE token_hash = $1`, []byte(token)); n != 0 {
		t.Fatal("the raw token is stored in email_tokens")
	}
	if r := e.call("GET", "/api/auth/verify?t="+token, "", nil); r.code != http.StatusOK || r.body != account.MsgVerified {
		t.Fatalf("verify with the delivered link: %d %q", r.code, r.body)
	}
}

func TestVerifyLinkExpires(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.call("POST", "/api/auth/register", "", map[string]string{"name": "B", "email": "b@example.com", "password": "steamed-milk-42", "confirmPassword": "steamed-milk-42"})
	token := queryParam(t, e.lastLink("b@example.com", testPublicURL+"/email-verified"), "t")
	e.exec(`UPDATE email_tokens SET expires_at = now() - interval '1 second'`)
	if r := e.call("GET", "/api/auth/verify?t="+token, "", nil); r.code != http.StatusBadRequest || r.body != account.MsgVerifyInvalid {
		t.Fatalf("expired: %d %q", r.code, r.body)
	}
	if r := e.call("GET", "/api/auth/verify?t=not-a-token", "", nil); r.code != http.StatusBadRequest {
		t.Fatalf("unknown: %d %q", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE email_verified_at IS NOT NULL`); n != 0 {
		t.Fatal("an expired link verified the account")
	}
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
			r := e.call("POST", "/api/auth/register", "", c.body)
			if r.code != http.StatusBadRequest {
				t.Fatalf("%d %s", r.code, r.body)
			}
			d := r.details(t)
			if msg, _ := d[c.field].(string); msg == "" || len(d) != 1 {
				t.Fatalf("details %v, want only %s", d, c.field)
			}
		})
	}
	// Every rule of the contract at once: every field reported (whether the confirmation
	// matches is checked once the schema holds).
	r := e.call("POST", "/api/auth/register", "", map[string]string{"name": "", "email": "x", "password": "1", "confirmPassword": "2"})
	if d := r.details(t); len(d) != 3 || d["name"] == nil || d["email"] == nil || d["password"] == nil {
		t.Fatalf("details %v", d)
	}
	if n := e.count(`SELECT count(*) FROM users`); n != 0 || len(e.mails()) != 0 {
		t.Fatal("a refused registration created an account or sent mail")
	}
	// 128 characters is allowed; characters, not bytes, are counted.
	long := strings.Repeat("é", 128)
	if r := e.call("POST", "/api/auth/register", "", with("password", long, "confirmPassword", long)); r.code != http.StatusCreated {
		t.Fatalf("128 characters: %d %s", r.code, r.body)
	}
}

func TestDuplicateRegistrationChangesNothing(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	fresh := e.call("POST", "/api/auth/register", "", map[string]string{"name": "Someone", "email": "new@example.com", "password": "another-pass-99", "confirmPassword": "another-pass-99"})
	e.signUp("Owner", "owner@example.com", "the-real-owner-pw")
	mailsBefore := e.mailsTo("owner@example.com")
	var hashBefore string
	_ = e.st.Pool().QueryRow(context.Background(), `SELECT password_hash FROM users WHERE email = 'owner@example.com'`).Scan(&hashBefore)

	dup := e.call("POST", "/api/auth/register", "", map[string]string{"name": "Intruder", "email": " OWNER@example.com ", "password": "intruder-pass-1", "confirmPassword": "intruder-pass-1"})
	if dup.code != fresh.code || dup.body != fresh.body {
		t.Fatalf("duplicate answered %d %s, a fresh registration %d %s", dup.code, dup.body, fresh.code, fresh.body)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE lower(email) = 'owner@example.com'`); n != 1 {
		t.Fatalf("%d accounts for one address", n)
	}
	var name, hashAfter string
	_ = e.st.Pool().QueryRow(context.Background(), `SELECT name, password_hash FROM users WHERE email = 'owner@example.com'`).Scan(&name, &hashAfter)
	if name != "Owner" || hashAfter != hashBefore {
		t.Fatal("the duplicate changed the existing account")
	}
	if r := e.call("POST", "/api/auth/login", "", map[string]string{"email": "owner@example.com", "password": "intruder-pass-1"}); r.code != http.StatusUnauthorized {
		t.Fatalf("intruder's password works: %d", r.code)
	}
	e.login("owner@example.com", "the-real-owner-pw")
	if e.mailsTo("owner@example.com") != mailsBefore+1 {
		t.Fatal("the owner was not told about the attempt")
	}
}

func TestLoginDoesNotRevealAccounts(t *testing.T) {
	e := newAccEnv(t, auth.DefaultArgon2)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	wrong := e.call("POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "not-her-password"})
	unknown := e.call("POST", "/api/auth/login", "", map[string]string{"email": "nobody@example.com", "password": "not-her-password"})
	if wrong.code != http.StatusUnauthorized || wrong.code != unknown.code || wrong.body != unknown.body {
		t.Fatalf("wrong password: %d %s; unknown e-mail: %d %s", wrong.code, wrong.body, unknown.code, unknown.body)
	}
	if m := wrong.json(t); m["message"] != "Invalid email or password." {
		t.Fatalf("message %v", m["message"])
	}
	login := func(email string) reply {
		return e.call("POST", "/api/auth/login", "", map[string]string{"email": email, "password": "not-her-password"})
	}
	e.sameTiming(t, "login", 7, func(int) reply { return login("ada@example.com") },
		func(i int) reply { return login(fmt.Sprintf("ghost%d@example.com", i)) },
		func(a, b time.Duration) bool { r := float64(b) / float64(a); return r > 0.6 && r < 1.6 })
}

// sameTiming times a and b alternately, in alternating order, n times each, and checks
// their medians with similar. A real difference shows in every measurement, a busy
// neighbour on the machine only in some: so a failed check is measured again, and the test
// fails only when three measurements in a row say the timings differ.
func (e *accEnv) sameTiming(t *testing.T, what string, n int, a, b func(i int) reply, similar func(a, b time.Duration) bool) {
	t.Helper()
	run := func(f func(int) reply, i int) (reply, time.Duration) {
		e.exec(`DELETE FROM rate_limits`)
		// Let the previous call's queued mail go first so it weighs on neither.
		e.drain()
		start := time.Now()
		r := f(i)
		return r, time.Since(start)
	}
	var ma, mb time.Duration
	for attempt := 0; attempt < 3; attempt++ {
		da, db := make([]time.Duration, n), make([]time.Duration, n)
		var ra, rb reply
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
		if ra.code != rb.code || ra.body != rb.body {
			t.Fatalf("%s: answers differ: %d %q / %d %q", what, ra.code, ra.body, rb.code, rb.body)
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
	if r := e.call("GET", "/api/auth/me", s.access, nil); r.code != http.StatusOK {
		t.Fatalf("genuine token refused: %d", r.code)
	}
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
	if r := e.call("GET", "/api/auth/me", sign(jwt.SigningMethodHS256, key, base()), nil); r.code != http.StatusOK {
		t.Fatalf("control token refused: %d %s", r.code, r.body)
	}
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
		if r := e.call("GET", "/api/auth/me", tok, nil); r.code != http.StatusUnauthorized {
			t.Errorf("%s: %d %s", name, r.code, r.body)
		}
	}
}

func TestRefreshRotationReuseAndGrace(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	if n := e.count(`SELECT count(*) FROM refresh_tokens WHERE token_hash = $1`, []byte(s.refresh)); n != 0 {
		t.Fatal("refresh token stored in clear")
	}

	r1 := e.refresh(s.refresh)
	if r1.code != http.StatusOK {
		t.Fatalf("refresh: %d %s", r1.code, r1.body)
	}
	p1 := r1.json(t)
	if p1["refreshToken"] == s.refresh || p1["accessToken"] == "" {
		t.Fatal("refresh did not rotate")
	}
	if r := e.call("GET", "/api/auth/me", p1["accessToken"].(string), nil); r.code != http.StatusOK {
		t.Fatalf("new access token: %d", r.code)
	}
	// A second tab refreshing with the same token right away gets the current pair back.
	r2 := e.refresh(s.refresh)
	if r2.code != http.StatusOK || r2.json(t)["refreshToken"] != p1["refreshToken"] {
		t.Fatalf("inside the grace window: %d %s", r2.code, r2.body)
	}
	// The current token rotates on as usual.
	r3 := e.refresh(p1["refreshToken"].(string))
	if r3.code != http.StatusOK {
		t.Fatalf("rotate again: %d %s", r3.code, r3.body)
	}
	p3 := r3.json(t)
	// Outside the window, replaying a rotated token revokes the whole family.
	e.exec(`UPDATE refresh_tokens SET rotated_at = rotated_at - interval '10 seconds' WHERE rotated_at IS NOT NULL`)
	if r := e.refresh(s.refresh); r.code != http.StatusUnauthorized || r.json(t)["code"] != "INVALID_REFRESH_TOKEN" {
		t.Fatalf("reuse: %d %s", r.code, r.body)
	}
	if r := e.refresh(p3["refreshToken"].(string)); r.code != http.StatusUnauthorized {
		t.Fatalf("the family's current token still works after reuse: %d", r.code)
	}
	if r := e.call("GET", "/api/auth/me", p3["accessToken"].(string), nil); r.code != http.StatusUnauthorized {
		t.Fatalf("access token of a revoked family works: %d", r.code)
	}
	if r := e.refresh("made-up-token"); r.code != http.StatusUnauthorized {
		t.Fatalf("unknown token: %d", r.code)
	}
	// Another login of the same user is untouched.
	s2 := e.login("ada@example.com", "brew-a-fresh-pot")
	if r := e.refresh(s2.refresh); r.code != http.StatusOK {
		t.Fatalf("other family: %d", r.code)
	}
}

func TestRefreshFamilyExpiresAbsolutely(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	var exp time.Time
	_ = e.st.Pool().QueryRow(context.Background(), `SELECT expires_at FROM refresh_token_families`).Scan(&exp)
	if d := time.Until(exp); d < 29*24*time.Hour || d > 30*24*time.Hour+time.Minute {
		t.Fatalf("family lives %v", d)
	}
	p := e.refresh(s.refresh).json(t)
	var exp2 time.Time
	_ = e.st.Pool().QueryRow(context.Background(), `SELECT max(expires_at) FROM refresh_tokens`).Scan(&exp2)
	if !exp2.Equal(exp) {
		t.Fatal("rotation extended the login")
	}
	e.exec(`UPDATE refresh_token_families SET expires_at = now() - interval '1 second'`)
	if r := e.refresh(p["refreshToken"].(string)); r.code != http.StatusUnauthorized {
		t.Fatalf("expired family: %d", r.code)
	}
}

func TestLogoutRevokesTheFamily(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	b := e.login("ada@example.com", "brew-a-fresh-pot")
	if r := e.call("POST", "/api/auth/logout", "", nil); r.code != http.StatusUnauthorized {
		t.Fatalf("anonymous logout: %d", r.code)
	}
	if r := e.call("POST", "/api/auth/logout", a.access, nil); r.code != http.StatusNoContent {
		t.Fatalf("logout: %d %s", r.code, r.body)
	}
	if r := e.refresh(a.refresh); r.code != http.StatusUnauthorized {
		t.Fatalf("refresh after logout: %d", r.code)
	}
	if r := e.call("GET", "/api/auth/me", a.access, nil); r.code != http.StatusUnauthorized {
		t.Fatalf("access after logout: %d", r.code)
	}
	// The other tab/device stays signed in.
	if r := e.call("GET", "/api/auth/me", b.access, nil); r.code != http.StatusOK {
		t.Fatalf("other login: %d", r.code)
	}
}

func (e *accEnv) requestReset(email string) reply {
	return e.call("POST", "/api/public/reset-password-email?email="+url.QueryEscape(email), "", nil)
}

func (e *accEnv) reset(token, pw, confirm string) reply {
	return e.call("PUT", "/api/public/reset-password?token="+url.QueryEscape(token), "", map[string]string{"password": pw, "confirmPassword": confirm})
}

func TestPasswordReset(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	other := e.login("ada@example.com", "brew-a-fresh-pot")
	mailsBefore := len(e.mails())

	unknown := e.requestReset("nobody@example.com")
	known := e.requestReset("ADA@example.com")
	want := "If an account exists for that email, we've sent a link to reset your password."
	if unknown.code != http.StatusOK || known.code != http.StatusOK || unknown.body != want || known.body != want {
		t.Fatalf("unknown: %d %q; known: %d %q", unknown.code, unknown.body, known.code, known.body)
	}
	if got := len(e.mails()); got != mailsBefore+1 {
		t.Fatalf("%d new mails, want exactly one (to the account)", got-mailsBefore)
	}
	if r := e.requestReset("not-an-address"); r.code != http.StatusBadRequest || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("bad address: %d %q", r.code, r.body)
	}
	token := queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/reset?token="), "token")

	for _, c := range []struct{ pw, confirm, want string }{
		{"new-secret-pw-1", "new-secret-pw-2", "Passwords do not match."},
		{"short", "short", "Must be at least 8 characters."},
		{"ada@example.com", "ada@example.com", "Your password must not be your email address."},
		{"qwertyuiop", "qwertyuiop", "This password is too common. Please choose one that is harder to guess."},
	} {
		if r := e.reset(token, c.pw, c.confirm); r.code != http.StatusBadRequest || r.body != c.want {
			t.Errorf("reset %q/%q: %d %q, want %q", c.pw, c.confirm, r.code, r.body, c.want)
		}
	}
	if r := e.reset("forged-token", "new-secret-pw-1", "new-secret-pw-1"); r.code != http.StatusBadRequest || r.body != account.MsgResetInvalid {
		t.Fatalf("forged token: %d %q", r.code, r.body)
	}
	r := e.reset(token, "new-secret-pw-1", "new-secret-pw-1")
	if r.code != http.StatusOK || r.body != account.MsgResetDone {
		t.Fatalf("reset: %d %q", r.code, r.body)
	}
	if r := e.reset(token, "new-secret-pw-2", "new-secret-pw-2"); r.code != http.StatusBadRequest || r.body != account.MsgResetInvalid {
		t.Fatalf("second use: %d %q", r.code, r.body)
	}
	// Every login of the user is closed.
	for _, s := range []session{a, other} {
		if r := e.refresh(s.refresh); r.code != http.StatusUnauthorized {
			t.Fatalf("refresh after reset: %d", r.code)
		}
		if r := e.call("GET", "/api/auth/me", s.access, nil); r.code != http.StatusUnauthorized {
			t.Fatalf("access after reset: %d", r.code)
		}
	}
	if r := e.call("POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"}); r.code != http.StatusUnauthorized {
		t.Fatalf("old password: %d", r.code)
	}
	e.login("ada@example.com", "new-secret-pw-1")

	// Reset links live an hour.
	e.requestReset("ada@example.com")
	token = queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/reset?token="), "token")
	e.exec(`UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset'`)
	if r := e.reset(token, "new-secret-pw-3", "new-secret-pw-3"); r.code != http.StatusBadRequest || r.body != account.MsgResetInvalid {
		t.Fatalf("expired token: %d %q", r.code, r.body)
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

func TestRateLimits(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")

	t.Run("failed logins per account", func(t *testing.T) {
		for i := 0; i < 10; i++ {
			r := e.callFrom(fmt.Sprintf("192.0.2.%d", i), "POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "wrong-password"})
			if r.code != http.StatusUnauthorized {
				t.Fatalf("attempt %d: %d %s", i+1, r.code, r.body)
			}
		}
		r := e.callFrom("192.0.2.200", "POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"})
		if r.code != http.StatusTooManyRequests || r.json(t)["code"] != "RATE_LIMITED" {
			t.Fatalf("11th: %d %s", r.code, r.body)
		}
		if ra, _ := strconv.Atoi(r.header.Get("Retry-After")); ra < 1 || ra > 15*60 {
			t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
		}
		// The real owner can still reset the password, and that lifts the lock.
		e.requestReset("ada@example.com")
		token := queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/reset?token="), "token")
		if r := e.reset(token, "fresh-start-pw-9", "fresh-start-pw-9"); r.code != http.StatusOK {
			t.Fatalf("reset while locked: %d %s", r.code, r.body)
		}
		e.login("ada@example.com", "fresh-start-pw-9")
	})

	t.Run("failed logins per address", func(t *testing.T) {
		for i := 0; i < 100; i++ {
			r := e.callFrom("192.0.2.99", "POST", "/api/auth/login", "", map[string]string{"email": fmt.Sprintf("guess%d@example.com", i), "password": "x"})
			if r.code != http.StatusUnauthorized {
				t.Fatalf("attempt %d: %d", i+1, r.code)
			}
		}
		if r := e.callFrom("192.0.2.99", "POST", "/api/auth/login", "", map[string]string{"email": "guess@example.com", "password": "x"}); r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
			t.Fatalf("101st: %d", r.code)
		}
		if r := e.callFrom("192.0.2.98", "POST", "/api/auth/login", "", map[string]string{"email": "guess@example.com", "password": "x"}); r.code != http.StatusUnauthorized {
			t.Fatalf("another address: %d", r.code)
		}
	})

	t.Run("reset mails per e-mail", func(t *testing.T) {
		for i := 0; i < 3; i++ {
			if r := e.callFrom(fmt.Sprintf("192.0.2.%d", 50+i), "POST", "/api/public/reset-password-email?email=limit@example.com", "", nil); r.code != http.StatusOK {
				t.Fatalf("request %d: %d", i+1, r.code)
			}
		}
		r := e.callFrom("192.0.2.60", "POST", "/api/public/reset-password-email?email=LIMIT@example.com", "", nil)
		if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") || r.body != account.MsgMailLimited {
			t.Fatalf("4th: %d %q %v", r.code, r.body, r.header)
		}
	})

	t.Run("reset mails per address", func(t *testing.T) {
		for i := 0; i < 20; i++ {
			if r := e.callFrom("192.0.2.77", "POST", fmt.Sprintf("/api/public/reset-password-email?email=a%d@example.com", i), "", nil); r.code != http.StatusOK {
				t.Fatalf("request %d: %d", i+1, r.code)
			}
		}
		if r := e.callFrom("192.0.2.77", "POST", "/api/public/reset-password-email?email=b@example.com", "", nil); r.code != http.StatusTooManyRequests {
			t.Fatalf("21st: %d", r.code)
		}
	})

	t.Run("registrations per address", func(t *testing.T) {
		for i := 0; i < 20; i++ {
			r := e.callFrom("192.0.2.88", "POST", "/api/auth/register", "", map[string]string{"name": "N", "email": fmt.Sprintf("r%d@example.com", i), "password": "brew-a-fresh-pot", "confirmPassword": "brew-a-fresh-pot"})
			if r.code != http.StatusCreated {
				t.Fatalf("registration %d: %d %s", i+1, r.code, r.body)
			}
		}
		r := e.callFrom("192.0.2.88", "POST", "/api/auth/register", "", map[string]string{"name": "N", "email": "r99@example.com", "password": "brew-a-fresh-pot", "confirmPassword": "brew-a-fresh-pot"})
		if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || r.json(t)["code"] != "RATE_LIMITED" {
			t.Fatalf("21st: %d %s", r.code, r.body)
		}
		if n := e.count(`SELECT count(*) FROM users WHERE email = 'r99@example.com'`); n != 0 {
			t.Fatal("a limited registration created an account")
		}
	})
}

func TestProfile(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	b := e.signUp("Bo", "bo@example.com", "steamed-milk-42")
	if r := e.call("GET", "/api/profile", "", nil); r.code != http.StatusUnauthorized {
		t.Fatalf("anonymous: %d", r.code)
	}
	r := e.call("GET", "/api/profile", a.access, nil)
	m := r.json(t)
	if r.code != http.StatusOK || m["name"] != "Ada" || m["email"] != "ada@example.com" || m["role"] != "USER" || m["age"] != nil ||
		m["focusAreas"] != "" || m["primaryConcerns"] != "" || m["sensitiveTopics"] != "" {
		t.Fatalf("profile: %d %s", r.code, r.body)
	}
	if _, ok := m["age"]; !ok {
		t.Fatal("age missing (must be null)")
	}

	put := func(body string) reply {
		req := httptest.NewRequest("PUT", "/api/profile", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+a.access)
		req.RemoteAddr = e.ip + ":1"
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		return reply{code: rec.Code, body: rec.Body.String(), header: rec.Header()}
	}
	if r := put(`{"age": 30}`); r.code != http.StatusOK || r.json(t)["age"] != float64(30) {
		t.Fatalf("age 30: %d %s", r.code, r.body)
	}
	if r := put(`{"focusAreas": "  exams and sleep "}`); r.code != http.StatusOK || r.json(t)["focusAreas"] != "exams and sleep" || r.json(t)["age"] != float64(30) {
		t.Fatalf("focusAreas: %d %s", r.code, r.body)
	}
	if r := put(`{"primaryConcerns": "` + strings.Repeat("é", 250) + `"}`); r.code != http.StatusOK {
		t.Fatalf("250 characters: %d %s", r.code, r.body)
	}
	if r := put(`{"sensitiveTopics": "family"}`); r.code != http.StatusOK || r.json(t)["sensitiveTopics"] != "family" {
		t.Fatalf("sensitiveTopics: %d %s", r.code, r.body)
	}
	for body, field := range map[string]string{
		`{"age": 12}`:  "age",
		`{"age": 121}`: "age",
		`{"age": 0}`:   "age",
		`{"focusAreas": "` + strings.Repeat("x", 251) + `"}`: "focusAreas",
		`{"sensitiveTopics": 5}`:                             "sensitiveTopics",
	} {
		r := put(body)
		if r.code != http.StatusBadRequest {
			t.Fatalf("%.30s: %d %s", body, r.code, r.body)
		}
		if d := r.details(t); d[field] == nil {
			t.Fatalf("%.30s: details %v", body, d)
		}
	}
	if d := put(`{"age": 12}`).details(t); d["age"] != "Must be a number from 13 to 120." {
		t.Fatalf("under 13: %v", d["age"])
	}
	for _, body := range []string{`{}`, `{"age": 20, "focusAreas": "x"}`, `{"email": "x@y.z"}`} {
		if r := put(body); r.code != http.StatusBadRequest {
			t.Fatalf("%s: %d", body, r.code)
		}
	}
	if r := put(`{"age": null}`); r.code != http.StatusOK || r.json(t)["age"] != nil {
		t.Fatalf("age null: %d %s", r.code, r.body)
	}
	if m["memoryEnabled"] != true {
		t.Fatalf("memory is on by default: %v", m["memoryEnabled"])
	}
	if r := put(`{"memoryEnabled": false}`); r.code != http.StatusOK || r.json(t)["memoryEnabled"] != false || r.json(t)["sensitiveTopics"] != "family" {
		t.Fatalf("memoryEnabled: %d %s", r.code, r.body)
	}
	if r := put(`{"memoryEnabled": "no"}`); r.code != http.StatusBadRequest {
		t.Fatalf("memoryEnabled as text: %d %s", r.code, r.body)
	}
	// Bo's profile is untouched.
	r = e.call("GET", "/api/profile", b.access, nil)
	if m := r.json(t); m["name"] != "Bo" || m["focusAreas"] != "" || m["sensitiveTopics"] != "" || m["age"] != nil || m["memoryEnabled"] != true {
		t.Fatalf("another user's profile changed: %s", r.body)
	}
}

func TestChangePassword(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	other := e.login("ada@example.com", "brew-a-fresh-pot")
	bo := e.signUp("Bo", "bo@example.com", "steamed-milk-42")
	change := func(cur, nw, confirm string) reply {
		return e.call("PUT", "/api/profile/password", a.access, map[string]string{"currentPassword": cur, "newPassword": nw, "confirmNewPassword": confirm})
	}
	for _, c := range []struct{ cur, nw, confirm, field string }{
		{"wrong-current-pw", "roasted-beans-77", "roasted-beans-77", "currentPassword"},
		{"brew-a-fresh-pot", "short", "short", "newPassword"},
		{"brew-a-fresh-pot", "12345678", "12345678", "newPassword"},
		{"brew-a-fresh-pot", "ADA@EXAMPLE.COM", "ADA@EXAMPLE.COM", "newPassword"},
		{"brew-a-fresh-pot", "roasted-beans-77", "roasted-beans-78", "confirmNewPassword"},
	} {
		r := change(c.cur, c.nw, c.confirm)
		if r.code != http.StatusBadRequest || r.details(t)[c.field] == nil {
			t.Fatalf("%+v: %d %s", c, r.code, r.body)
		}
	}
	if r := e.call("PUT", "/api/profile/password", "", map[string]string{"currentPassword": "a", "newPassword": "b", "confirmNewPassword": "b"}); r.code != http.StatusUnauthorized {
		t.Fatalf("anonymous: %d", r.code)
	}
	r := change("brew-a-fresh-pot", "roasted-beans-77", "roasted-beans-77")
	if r.code != http.StatusOK || r.json(t)["message"] == "" {
		t.Fatalf("change: %d %s", r.code, r.body)
	}
	// The caller stays signed in; the other login of the user is closed; Bo is untouched.
	if r := e.call("GET", "/api/auth/me", a.access, nil); r.code != http.StatusOK {
		t.Fatalf("caller's access: %d", r.code)
	}
	if r := e.refresh(a.refresh); r.code != http.StatusOK {
		t.Fatalf("caller's refresh: %d", r.code)
	}
	if r := e.refresh(other.refresh); r.code != http.StatusUnauthorized {
		t.Fatalf("other login's refresh: %d", r.code)
	}
	if r := e.refresh(bo.refresh); r.code != http.StatusOK {
		t.Fatalf("another user's login: %d", r.code)
	}
	if r := e.call("POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"}); r.code != http.StatusUnauthorized {
		t.Fatalf("old password: %d", r.code)
	}
	e.login("ada@example.com", "roasted-beans-77")
	e.login("bo@example.com", "steamed-milk-42")
}

func TestChangePasswordIsRateLimited(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	for i := 0; i < 10; i++ {
		e.call("PUT", "/api/profile/password", a.access, map[string]string{"currentPassword": "guess", "newPassword": "roasted-beans-77", "confirmNewPassword": "roasted-beans-77"})
	}
	r := e.call("PUT", "/api/profile/password", a.access, map[string]string{"currentPassword": "brew-a-fresh-pot", "newPassword": "roasted-beans-77", "confirmNewPassword": "roasted-beans-77"})
	if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Fatalf("11th: %d %s", r.code, r.body)
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
	tables := []string{"refresh_token_families", "refresh_tokens", "email_tokens", "chat_sessions", "messages", "external_identities", "usage_counters", "weekly_reports", "login_codes"}
	countsOf := func(userID any) map[string]int {
		m := map[string]int{}
		for _, tbl := range tables {
			m[tbl] = e.count(`SELECT count(*) FROM `+tbl+` WHERE user_id = $1`, userID)
		}
		return m
	}
	bBefore := countsOf(b.user["id"])
	for tbl, n := range countsOf(a.user["id"]) {
		if n == 0 {
			t.Fatalf("setup: no %s rows for Ada", tbl)
		}
	}

	if r := e.call("DELETE", "/api/profile", "", nil); r.code != http.StatusUnauthorized {
		t.Fatalf("anonymous: %d", r.code)
	}
	if r := e.call("DELETE", "/api/profile", a.access, nil); r.code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.code, r.body)
	}
	if n := e.count(`SELECT count(*) FROM users WHERE id = $1`, a.user["id"]); n != 0 {
		t.Fatal("the account is still there")
	}
	for tbl, n := range countsOf(a.user["id"]) {
		if n != 0 {
			t.Errorf("%d %s rows left", n, tbl)
		}
	}
	for tbl, n := range countsOf(b.user["id"]) {
		if n != bBefore[tbl] {
			t.Errorf("Bo's %s: %d rows, had %d", tbl, n, bBefore[tbl])
		}
	}
	if r := e.call("GET", "/api/auth/me", a.access, nil); r.code != http.StatusUnauthorized {
		t.Fatalf("deleted user's access token: %d", r.code)
	}
	if r := e.refresh(a.refresh); r.code != http.StatusUnauthorized {
		t.Fatalf("deleted user's refresh token: %d", r.code)
	}
	if r := e.call("POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"}); r.code != http.StatusUnauthorized {
		t.Fatalf("deleted user signs in: %d", r.code)
	}
	if r := e.call("GET", "/api/profile", b.access, nil); r.code != http.StatusOK {
		t.Fatalf("Bo: %d", r.code)
	}
}

func TestResetAndRegisterDoNotRevealAccounts(t *testing.T) {
	e := newAccEnv(t, auth.DefaultArgon2)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	similar := func(a, b time.Duration) bool {
		d, tol := a-b, max(30*time.Millisecond, min(a, b)*2/5)
		return d <= tol && d >= -tol
	}
	e.sameTiming(t, "reset mail", 9,
		func(int) reply { return e.requestReset("ada@example.com") },
		func(i int) reply { return e.requestReset(fmt.Sprintf("ghost%d@example.com", i)) }, similar)
	link := func(email string) reply {
		return e.call("POST", "/api/auth/login-link", "", map[string]string{"email": email})
	}
	e.sameTiming(t, "sign-in link", 9,
		func(int) reply { return link("ada@example.com") },
		func(i int) reply { return link(fmt.Sprintf("ghost%d@example.com", i)) }, similar)
	reg := func(email string) reply {
		return e.call("POST", "/api/auth/register", "", map[string]string{"name": "X", "email": email, "password": "brew-a-fresh-pot", "confirmPassword": "brew-a-fresh-pot"})
	}
	e.sameTiming(t, "register", 9,
		func(int) reply { return reg("ada@example.com") },
		func(i int) reply { return reg(fmt.Sprintf("fresh%d@example.com", i)) }, similar)
}

func TestConcurrentRefreshesShareTheNewPair(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	const tabs = 4
	out := make(chan reply, tabs)
	for i := 0; i < tabs; i++ {
		go func() { out <- e.refresh(s.refresh) }()
	}
	var first string
	for i := 0; i < tabs; i++ {
		r := <-out
		if r.code != http.StatusOK {
			t.Fatalf("tab %d: %d %s", i, r.code, r.body)
		}
		var m map[string]any
		_ = json.Unmarshal([]byte(r.body), &m)
		tok := m["refreshToken"].(string)
		if first == "" {
			first = tok
		} else if tok != first {
			t.Fatal("tabs got different refresh tokens")
		}
	}
	if r := e.refresh(first); r.code != http.StatusOK {
		t.Fatalf("the shared token: %d", r.code)
	}
}

// TestResendVerification: a new link goes to an unverified account (at most one a minute),
// and the answer is the same for a verified account and for no account at all.
func TestResendVerification(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.call("POST", "/api/auth/register", "", map[string]string{"name": "Ada", "email": "ada@example.com", "password": "brew-a-fresh-pot", "confirmPassword": "brew-a-fresh-pot"})
	e.lastLink("ada@example.com", testPublicURL+"/email-verified?t=")
	e.signUp("Bo", "bo@example.com", "steamed-milk-42")
	before := len(e.mails())

	resend := func(email string) {
		t.Helper()
		r := e.call("POST", "/api/auth/resend-verification", "", map[string]string{"email": email})
		if r.code != http.StatusOK || r.json(t)["message"] != account.MsgResent {
			t.Fatalf("resend to %s: %d %s", email, r.code, r.body)
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
	if r := e.call("GET", "/api/auth/verify?t="+queryParam(t, link, "t"), "", nil); r.code != http.StatusOK {
		t.Fatalf("the resent link does not verify: %d %q", r.code, r.body)
	}

	// A verified account and an unknown address get the same answer and no mail.
	resend("bo@example.com")
	resend("nobody@example.com")
	queuetest.Drain(t, e.q)
	if got := len(e.mails()) - before; got != 1 {
		t.Fatalf("%d mails since the sign-ups, want only ada's fresh link", got)
	}
	if r := e.call("POST", "/api/auth/resend-verification", "", map[string]string{"email": "not-an-address"}); r.code != http.StatusBadRequest || r.details(t)["email"] == nil {
		t.Fatalf("a bad address: %d %s", r.code, r.body)
	}
}
