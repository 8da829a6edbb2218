package httpapi

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/auth"
	"github.com/percolate/percolate/backend/internal/mail"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

// tcpProxy stands between the app and PostgreSQL, so a test can take the database away:
// Cut closes the listener and every connection, as a database host that went down would.
type tcpProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
}

func startProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln, target: target}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
	t.Cleanup(p.Cut)
	return p
}

func (p *tcpProxy) Cut() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// outageEnv is an account service whose database can be taken away.
type outageEnv struct {
	*accEnv
	proxy *tcpProxy
}

func newOutageEnv(t *testing.T) *outageEnv {
	t.Helper()
	u, err := url.Parse(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	p := startProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	tokens, err := auth.NewTokens(st, auth.Config{Key: make([]byte, 32), Issuer: testPublicURL})
	if err != nil {
		t.Fatal(err)
	}
	hasher := auth.NewHasher(cheapArgon, 0)
	svc := account.NewService(st, hasher, tokens, discardSender{}, queuetest.New(t, st), account.Config{PublicURL: testPublicURL, Logger: discardLogger()})
	hash, err := hasher.Hash(ctx, "brew-a-fresh-pot")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: "ada@example.com", Name: "Ada", PasswordHash: &hash, EmailVerifiedAt: &now}); err != nil {
		t.Fatal(err)
	}
	h := newTestHandler(t, Deps{DB: st, Verifier: NewTokenVerifier(tokens), Accounts: svc, Version: "test"})
	return &outageEnv{accEnv: &accEnv{t: t, st: st, h: h, svc: svc, tokens: tokens, ip: "198.51.100.7"}, proxy: p}
}

// unavailable checks that r is the contract's "try again" answer: 503, Retry-After, and
// the common error shape.
func unavailable(t *testing.T, what string, r reply) {
	t.Helper()
	if r.code != http.StatusServiceUnavailable {
		t.Fatalf("%s with the database down: %d %s, want 503", what, r.code, r.body)
	}
	if n, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || n < 1 {
		t.Fatalf("%s: Retry-After %q", what, r.header.Get("Retry-After"))
	}
	if m := r.json(t); m["code"] != "SERVICE_UNAVAILABLE" || m["message"] == "" || m["error"] == "" {
		t.Fatalf("%s: body %s", what, r.body)
	}
}

func TestADatabaseOutageSignsNobodyOut(t *testing.T) {
	e := newOutageEnv(t)
	s := e.login("ada@example.com", "brew-a-fresh-pot")
	if r := e.call("GET", "/api/auth/me", s.access, nil); r.code != http.StatusOK {
		t.Fatalf("me: %d %s", r.code, r.body)
	}

	e.proxy.Cut()

	unavailable(t, "a valid access token", e.call("GET", "/api/auth/me", s.access, nil))
	unavailable(t, "a profile read", e.call("GET", "/api/profile", s.access, nil))
	unavailable(t, "a refresh", e.refresh(s.refresh))
	unavailable(t, "a sign-in", e.call("POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"}))
	unavailable(t, "a sign-in link", e.call("POST", "/api/auth/login-link", "", map[string]string{"email": "ada@example.com"}))
	// A token that is no good is still refused as such: the signature needs no database.
	if r := e.call("GET", "/api/auth/me", "not-a-token", nil); r.code != http.StatusUnauthorized {
		t.Fatalf("a forged token with the database down: %d %s", r.code, r.body)
	}

	if r := e.call("GET", "/api/health", "", nil); r.code != http.StatusOK || r.json(t)["status"] != "ok" {
		t.Fatalf("liveness with the database down: %d %s", r.code, r.body)
	}
	r := e.call("GET", "/api/health/ready", "", nil)
	if r.code != http.StatusServiceUnavailable || r.json(t)["database"] != "unavailable" || r.header.Get("Retry-After") == "" {
		t.Fatalf("readiness with the database down: %d %s %v", r.code, r.body, r.header)
	}
}

func TestAClosedPoolIsUnavailableNotUnauthorized(t *testing.T) {
	e := newOutageEnv(t)
	s := e.login("ada@example.com", "brew-a-fresh-pot")
	e.st.Close()
	unavailable(t, "a valid access token", e.call("GET", "/api/auth/me", s.access, nil))
	unavailable(t, "a refresh", e.refresh(s.refresh))
	unavailable(t, "a sign-in", e.call("POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"}))
}

func TestHealthIsLivenessAndReadinessChecksTheDatabase(t *testing.T) {
	e := newOutageEnv(t)
	r := e.call("GET", "/api/health", "", nil)
	if m := r.json(t); r.code != http.StatusOK || m["status"] != "ok" || m["version"] != "test" {
		t.Fatalf("liveness: %d %s", r.code, r.body)
	}
	r = e.call("GET", "/api/health/ready", "", nil)
	if m := r.json(t); r.code != http.StatusOK || m["status"] != "ok" || m["database"] != "ok" || m["version"] != "test" {
		t.Fatalf("readiness: %d %s", r.code, r.body)
	}
}

type discardSender struct{}

func (discardSender) Send(context.Context, mail.Message) error { return nil }
