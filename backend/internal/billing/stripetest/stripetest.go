// Package stripetest runs stripe-mock, Stripe's own API double, on loopback for tests, and
// records what the client sent to it at the HTTP level.
package stripetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the stripe-mock release the tests run against.
const Version = "v0.203.0"

var (
	installOnce sync.Once
	binPath     string
	installErr  error
)

// Server is a running stripe-mock.
type Server struct {
	URL string

	mu       sync.Mutex
	requests []Request
}

// Request is one call that reached stripe-mock.
type Request struct {
	Method string
	Path   string
	Form   url.Values
}

// Start runs stripe-mock for the test (installing it with `go install` when it is missing)
// and stops it when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := binary()
	if err != nil {
		t.Fatalf("stripe-mock: %v", err)
	}
	// The ports are free when chosen but not reserved: a test running in parallel may take
	// one before stripe-mock binds it. Then stripe-mock exits, and another pair is tried.
	for attempt := 1; ; attempt++ {
		s, err := start(t, bin)
		if err == nil {
			return s
		}
		if attempt == 3 {
			t.Fatal(err)
		}
		t.Logf("stripe-mock, attempt %d: %v", attempt, err)
	}
}

func start(t testing.TB, bin string) (*Server, error) {
	httpAddr, httpsAddr := freeAddr(t), freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-http-addr", httpAddr, "-https-addr", httpsAddr) // #nosec G204 -- the pinned stripe-mock binary, in tests only; no shell
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("start stripe-mock: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() { cancel(); <-exited }
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-exited:
			cancel()
			return nil, fmt.Errorf("stripe-mock exited (%v): %s", err, logs.String())
		default:
		}
		if answers(httpAddr) {
			t.Cleanup(stop)
			return &Server{URL: "http://" + httpAddr}, nil
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("stripe-mock did not start: %s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// answers says whether stripe-mock serves the API at addr. It asks for a Stripe list rather
// than only dialling, so that whatever else took the port is not mistaken for it.
func answers(addr string) bool {
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/v1/customers", nil)
	if err != nil {
		return false
	}
	req.Header.Set("Authorization", "Bearer sk_test_123")
	res, err := (&http.Client{Timeout: time.Second}).Do(req)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	var list struct {
		Object string `json:"object"`
	}
	return res.StatusCode == http.StatusOK && json.NewDecoder(res.Body).Decode(&list) == nil && list.Object == "list"
}

// HTTPClient returns a client that records every request before sending it.
func (s *Server) HTTPClient() *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: recorder{s: s, next: http.DefaultTransport}}
}

// Requests returns the calls made so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Last returns the last call to path, or false.
func (s *Server) Last(method, path string) (Request, bool) {
	reqs := s.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Method == method && reqs[i].Path == path {
			return reqs[i], true
		}
	}
	return Request{}, false
}

type recorder struct {
	s    *Server
	next http.RoundTripper
}

func (r recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	form, _ := url.ParseQuery(string(body))
	r.s.mu.Lock()
	r.s.requests = append(r.s.requests, Request{Method: req.Method, Path: req.URL.Path, Form: form})
	r.s.mu.Unlock()
	return r.next.RoundTrip(req)
}

func binary() (string, error) {
	installOnce.Do(func() {
		if p, err := exec.LookPath("stripe-mock"); err == nil {
			binPath = p
			return
		}
		gobin := os.Getenv("GOBIN")
		if gobin == "" {
			out, err := exec.Command("go", "env", "GOPATH").Output()
			if err != nil {
				installErr = fmt.Errorf("go env GOPATH: %w", err)
				return
			}
			gobin = filepath.Join(strings.TrimSpace(string(out)), "bin")
		}
		binPath = filepath.Join(gobin, "stripe-mock")
		if _, err := os.Stat(binPath); err == nil {
			return
		}
		cmd := exec.Command("go", "install", "github.com/stripe/stripe-mock@"+Version)
		cmd.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			installErr = fmt.Errorf("go install stripe-mock: %w\n%s", err, out)
		}
	})
	return binPath, installErr
}

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
