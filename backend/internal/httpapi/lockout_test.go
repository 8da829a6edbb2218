package httpapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/percolate/percolate/backend/internal/account"
)

// concurrently sends n requests at once and counts the answers by status.
func concurrently(n int, send func(i int) reply) map[int]int {
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		codes = map[int]int{}
		start = make(chan struct{})
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := send(i)
			mu.Lock()
			codes[r.code]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return codes
}

func TestLoginLimitHoldsUnderConcurrentAttempts(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	// Each attempt from its own address, so the per-account limit (10) is the one tested.
	codes := concurrently(40, func(i int) reply {
		return e.callFrom(fmt.Sprintf("192.0.2.%d", i), "POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "wrong-password"})
	})
	// A wrong password is answered 401 only after its hash was checked: 10 hashes, no more.
	if codes[http.StatusUnauthorized] != 10 || codes[http.StatusTooManyRequests] != 30 {
		t.Fatalf("40 concurrent wrong passwords: %v, want 10 × 401 and 30 × 429", codes)
	}
	r := e.callFrom("192.0.2.200", "POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"})
	if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Fatalf("the right password after the limit: %d %s", r.code, r.body)
	}
}

func TestSuccessfulLoginsDoNotUseTheAddressLimit(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	for i := 0; i < 110; i++ {
		if r := e.callFrom("192.0.2.7", "POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"}); r.code != http.StatusOK {
			t.Fatalf("sign-in %d from one address: %d %s", i+1, r.code, r.body)
		}
	}
}

func TestPasswordChangeLimitHoldsUnderConcurrentAttempts(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	codes := concurrently(40, func(int) reply {
		return e.call("PUT", "/api/profile/password", a.access, map[string]string{"currentPassword": "guess-guess", "newPassword": "roasted-beans-77", "confirmNewPassword": "roasted-beans-77"})
	})
	if codes[http.StatusBadRequest] != 10 || codes[http.StatusTooManyRequests] != 30 {
		t.Fatalf("40 concurrent wrong current passwords: %v, want 10 × 400 and 30 × 429", codes)
	}
	r := e.call("PUT", "/api/profile/password", a.access, map[string]string{"currentPassword": "brew-a-fresh-pot", "newPassword": "roasted-beans-77", "confirmNewPassword": "roasted-beans-77"})
	if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Fatalf("the right password after the limit: %d %s", r.code, r.body)
	}
}

func TestBadLinksNeverRefuseGoodTokens(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	const ip = "192.0.2.120"
	bad := []func() reply{
		func() reply { return e.callFrom(ip, "GET", "/api/auth/verify?t=not-a-token", "", nil) },
		func() reply {
			return e.callFrom(ip, "PUT", "/api/public/reset-password?token=not-a-token", "", map[string]string{"password": "fresh-start-pw-9", "confirmPassword": "fresh-start-pw-9"})
		},
		func() reply {
			return e.callFrom(ip, "POST", "/api/auth/oidc/exchange", "", map[string]string{"code": "not-a-code"})
		},
	}
	for i := 0; i < 50; i++ {
		if r := bad[i%len(bad)](); r.code != http.StatusUnauthorized && r.code != http.StatusBadRequest {
			t.Fatalf("bad link %d: %d %s", i+1, r.code, r.body)
		}
	}
	if r := e.callFrom(ip, "GET", "/api/auth/verify?t=another", "", nil); r.code != http.StatusTooManyRequests ||
		!strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") || r.body != account.MsgTokenLimited || r.header.Get("Retry-After") == "" {
		t.Fatalf("bad link over the limit: %d %q", r.code, r.body)
	}
	// A refresh from that address works: refresh tokens are counted apart, and a good one
	// is never refused.
	r := e.callFrom(ip, "POST", "/api/auth/refresh", "", map[string]string{"refreshToken": s.refresh})
	if r.code != http.StatusOK {
		t.Fatalf("refresh after 50 bad links: %d %s", r.code, r.body)
	}
	// A good e-mail link from that address works too.
	if r := e.callFrom(ip, "POST", "/api/auth/register", "", map[string]string{"name": "Bo", "email": "bo@example.com", "password": "steamed-milk-42", "confirmPassword": "steamed-milk-42"}); r.code != http.StatusCreated {
		t.Fatalf("register: %d %s", r.code, r.body)
	}
	link := e.lastLink("bo@example.com", testPublicURL+"/email-verified?t=")
	if r := e.callFrom(ip, "GET", "/api/auth/verify?t="+url.QueryEscape(queryParam(t, link, "t")), "", nil); r.code != http.StatusOK {
		t.Fatalf("good link after 50 bad ones: %d %s", r.code, r.body)
	}
	e.requestReset("ada@example.com")
	token := queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/reset?token="), "token")
	if r := e.callFrom(ip, "PUT", "/api/public/reset-password?token="+url.QueryEscape(token), "", map[string]string{"password": "fresh-start-pw-9", "confirmPassword": "fresh-start-pw-9"}); r.code != http.StatusOK {
		t.Fatalf("good reset link after 50 bad ones: %d %s", r.code, r.body)
	}
	// Bad refresh tokens have their own limit, and it does not refuse a good one either.
	for i := 0; i < 50; i++ {
		if r := e.callFrom(ip, "POST", "/api/auth/refresh", "", map[string]string{"refreshToken": "not-a-token"}); r.code != http.StatusUnauthorized {
			t.Fatalf("bad refresh %d: %d %s", i+1, r.code, r.body)
		}
	}
	if r := e.callFrom(ip, "POST", "/api/auth/refresh", "", map[string]string{"refreshToken": "not-a-token"}); r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Fatalf("bad refresh over the limit: %d %s", r.code, r.body)
	}
	s2 := e.login("bo@example.com", "steamed-milk-42")
	if r := e.callFrom(ip, "POST", "/api/auth/refresh", "", map[string]string{"refreshToken": s2.refresh}); r.code != http.StatusOK {
		t.Fatalf("good refresh after 50 bad ones: %d %s", r.code, r.body)
	}
}

func TestResetMailLimitDoesNotRevealARecentRegistration(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	reg := func(email string) {
		r := e.callFrom("192.0.2.30", "POST", "/api/auth/register", "", map[string]string{"name": "X", "email": email, "password": "brew-a-fresh-pot", "confirmPassword": "brew-a-fresh-pot"})
		if r.code != http.StatusCreated {
			t.Fatalf("register: %d %s", r.code, r.body)
		}
	}
	// One address registered a moment ago (twice: a verification mail and a duplicate's
	// note), one never: the answers to reset requests follow the same pattern.
	reg("new@example.com")
	reg("new@example.com")
	pattern := func(email string, ip int) []int {
		var out []int
		for i := 0; i < 4; i++ {
			out = append(out, e.callFrom(fmt.Sprintf("192.0.2.%d", ip+i), "POST", "/api/public/reset-password-email?email="+email, "", nil).code)
		}
		return out
	}
	registered, unknown := pattern("new@example.com", 40), pattern("nobody@example.com", 50)
	if fmt.Sprint(registered) != fmt.Sprint(unknown) || fmt.Sprint(unknown) != "[200 200 200 429]" {
		t.Fatalf("reset answers: just registered %v, never registered %v", registered, unknown)
	}
}

func TestASignInLinkGetsTheOwnerPastALockout(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	for i := 0; i < 10; i++ {
		e.callFrom(fmt.Sprintf("192.0.2.%d", i), "POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "wrong-password"})
	}
	if r := e.call("POST", "/api/auth/login", "", map[string]string{"email": "ada@example.com", "password": "brew-a-fresh-pot"}); r.code != http.StatusTooManyRequests {
		t.Fatalf("locked: %d %s", r.code, r.body)
	}
	// Known, unknown or unverified: the same answer.
	if r := e.call("POST", "/api/auth/register", "", map[string]string{"name": "Bo", "email": "bo@example.com", "password": "steamed-milk-42", "confirmPassword": "steamed-milk-42"}); r.code != http.StatusCreated {
		t.Fatalf("register: %d", r.code)
	}
	for _, addr := range []string{"ada@example.com", "nobody@example.com", "bo@example.com"} {
		r := e.call("POST", "/api/auth/login-link", "", map[string]string{"email": addr})
		if r.code != http.StatusOK || r.json(t)["message"] != account.MsgLoginLinkSent {
			t.Fatalf("link for %s: %d %s", addr, r.code, r.body)
		}
	}
	if r := e.call("POST", "/api/auth/login-link", "", map[string]string{"email": "not an address"}); r.code != http.StatusBadRequest || r.details(t)["email"] == nil {
		t.Fatalf("malformed address: %d %s", r.code, r.body)
	}
	e.drain()
	if n := e.mailsTo("bo@example.com"); n != 1 {
		t.Fatalf("an unverified account got %d mails, want its verification only", n)
	}
	if n := e.count(`SELECT count(*) FROM email_tokens WHERE purpose = 'login'`); n != 1 {
		t.Fatalf("%d sign-in tokens, want 1", n)
	}
	if e.lastMailSubject("ada@example.com") != "Your Percolate sign-in link" {
		t.Fatalf("subject %q", e.lastMailSubject("ada@example.com"))
	}
	token := queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/login?loginToken="), "loginToken")

	r := e.call("POST", "/api/auth/login-link/redeem", "", map[string]string{"token": token})
	if r.code != http.StatusOK {
		t.Fatalf("redeem: %d %s", r.code, r.body)
	}
	m := r.json(t)
	if user, _ := m["user"].(map[string]any); user["email"] != "ada@example.com" || m["accessToken"] == "" {
		t.Fatalf("redeem: %s", r.body)
	}
	if r := e.call("GET", "/api/auth/me", m["accessToken"].(string), nil); r.code != http.StatusOK {
		t.Fatalf("signed in by link: %d", r.code)
	}
	// Once only.
	r = e.call("POST", "/api/auth/login-link/redeem", "", map[string]string{"token": token})
	if r.code != http.StatusUnauthorized || r.json(t)["code"] != account.CodeLoginLinkBad {
		t.Fatalf("second use: %d %s", r.code, r.body)
	}
	// The link lifted the lock: the password works again.
	e.login("ada@example.com", "brew-a-fresh-pot")
}
