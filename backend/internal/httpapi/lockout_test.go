package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

// concurrently sends n requests at once and counts the answers by status; an answer the typed
// client cannot read fails t.
func concurrently(t *testing.T, n int, send func(i int) (answer, error)) map[int]int {
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
			r, err := send(i)
			if err != nil {
				t.Errorf("request %d: the typed client could not read the answer: %v", i, err)
				return
			}
			mu.Lock()
			codes[r.StatusCode()]++
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
	// From one address, the limit of the account and that address together (10) holds.
	codes := concurrently(t, 40, func(int) (answer, error) {
		return e.apiFrom("192.0.2.10").LoginWithResponse(t.Context(), api.LoginRequest{Email: "ada@example.com", Password: "wrong-password"})
	})
	// A wrong password is answered 401 only after its hash was checked: 10 hashes, no more.
	if codes[http.StatusUnauthorized] != 10 || codes[http.StatusTooManyRequests] != 30 {
		t.Errorf("40 concurrent wrong passwords from one address: %v, want 10 × 401 and 30 × 429", codes)
	}
	r := e.loginFrom(t, "192.0.2.10", "ada@example.com", "brew-a-fresh-pot")
	wantStatus(t, r, nil, http.StatusTooManyRequests)
	if r.Headers429.RetryAfter == nil {
		t.Fatal("the right password after the limit: no Retry-After")
	}

	// Each from its own address, the account's ceiling (100, 10 of them used above) holds.
	codes = concurrently(t, 120, func(i int) (answer, error) {
		return e.apiFrom(fmt.Sprintf("203.0.113.%d", i)).LoginWithResponse(t.Context(), api.LoginRequest{Email: "ada@example.com", Password: "wrong-password"})
	})
	if codes[http.StatusUnauthorized] != 90 || codes[http.StatusTooManyRequests] != 30 {
		t.Errorf("120 concurrent wrong passwords from 120 addresses: %v, want 90 × 401 and 30 × 429", codes)
	}
	wantStatus(t, e.loginFrom(t, "198.51.100.200", "ada@example.com", "brew-a-fresh-pot"), nil, http.StatusTooManyRequests)
}

// A stranger's wrong passwords lock the stranger's own pairing with the account, not its
// owner on their device; the 429 names the way past it, a sign-in link.
func TestAStrangersWrongPasswordsDoNotLockTheOwnerOut(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	for _, stranger := range []struct{ name, first, next string }{
		{"one address", "192.0.2.66", "192.0.2.66"},
		// Any address of one IPv6 /64 is the same client: its holder has them all.
		{"one IPv6 network", "[2001:db8:1:2::%d]", "[2001:db8:1:2:ffff::1]"},
	} {
		for i := 0; i < 10; i++ {
			ip := stranger.first
			if strings.Contains(ip, "%d") {
				ip = fmt.Sprintf(ip, i+1)
			}
			if r := e.loginFrom(t, ip, "ada@example.com", "wrong-password"); r.StatusCode() != http.StatusUnauthorized {
				t.Fatalf("%s: wrong password %d: status = %d, want 401", stranger.name, i+1, r.StatusCode())
			}
		}
		r := e.loginFrom(t, stranger.next, "ada@example.com", "brew-a-fresh-pot")
		wantStatus(t, r, nil, http.StatusTooManyRequests)
		if !strings.Contains(r.JSON429.Message, "sign in with a link sent to your e-mail") {
			t.Errorf("%s: the 429 does not offer a sign-in link: %q", stranger.name, r.JSON429.Message)
		}
		// The owner, from their own device, is let in, and that does not lift the stranger's lock.
		e.login("ada@example.com", "brew-a-fresh-pot")
		wantStatus(t, e.loginFrom(t, stranger.next, "ada@example.com", "brew-a-fresh-pot"), nil, http.StatusTooManyRequests)
	}
	// The owner's own mistakes from their device, before the right password, are forgiven by it.
	for i := 0; i < 9; i++ {
		e.wantLogin(t, "ada@example.com", "wrong-password", http.StatusUnauthorized)
	}
	e.login("ada@example.com", "brew-a-fresh-pot")
	for i := 0; i < 9; i++ {
		e.wantLogin(t, "ada@example.com", "wrong-password", http.StatusUnauthorized)
	}
	e.login("ada@example.com", "brew-a-fresh-pot")
}

func TestSuccessfulLoginsDoNotUseTheAddressLimit(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	for i := 0; i < 110; i++ {
		if r := e.loginFrom(t, "192.0.2.7", "ada@example.com", "brew-a-fresh-pot"); r.StatusCode() != http.StatusOK {
			t.Fatalf("sign-in %d from one address: status = %d, want 200: %s", i+1, r.StatusCode(), r.Body)
		}
	}
}

func TestPasswordChangeLimitHoldsUnderConcurrentAttempts(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	a := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	codes := concurrently(t, 40, func(int) (answer, error) {
		return e.api.ChangePasswordWithResponse(t.Context(), api.PasswordChangeRequest{CurrentPassword: "guess-guess", NewPassword: "roasted-beans-77", ConfirmNewPassword: "roasted-beans-77"}, bearer(a.access))
	})
	if codes[http.StatusBadRequest] != 10 {
		t.Errorf("40 concurrent wrong current passwords: %d × 400, want 10 (all: %v)", codes[http.StatusBadRequest], codes)
	}
	if codes[http.StatusTooManyRequests] != 30 {
		t.Errorf("40 concurrent wrong current passwords: %d × 429, want 30 (all: %v)", codes[http.StatusTooManyRequests], codes)
	}
	r := e.changePassword(t, a.access, "brew-a-fresh-pot", "roasted-beans-77", "roasted-beans-77")
	wantStatus(t, r, nil, http.StatusTooManyRequests)
	if r.Headers429.RetryAfter == nil {
		t.Fatal("the right password after the limit: no Retry-After")
	}
}

func TestBadLinksNeverRefuseGoodTokens(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	ctx := t.Context()
	s := e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	const ip = "192.0.2.120"
	from := e.apiFrom(ip)
	bad := []func() (answer, error){
		func() (answer, error) {
			return from.VerifyEmailWithResponse(ctx, &api.VerifyEmailParams{T: "not-a-token"})
		},
		func() (answer, error) {
			return from.ResetPasswordWithResponse(ctx, &api.ResetPasswordParams{Token: "not-a-token"}, api.ResetPasswordRequest{Password: "fresh-start-pw-9", ConfirmPassword: "fresh-start-pw-9"})
		},
		func() (answer, error) {
			return from.ExchangeOidcCodeWithResponse(ctx, api.OidcExchangeRequest{Code: "not-a-code", BrowserNonce: testBrowserNonce})
		},
		func() (answer, error) {
			return from.LookUpLoginLinkWithResponse(ctx, api.LoginLinkRedeemRequest{Token: "not-a-token"})
		},
	}
	for i := 0; i < 50; i++ {
		r, err := bad[i%len(bad)]()
		if err != nil {
			t.Fatalf("bad link %d: %v", i+1, err)
		}
		if r.StatusCode() != http.StatusUnauthorized && r.StatusCode() != http.StatusBadRequest {
			t.Fatalf("bad link %d: status = %d, want 400 or 401: %s", i+1, r.StatusCode(), bodyOf(r))
		}
	}
	v, err := from.VerifyEmailWithResponse(ctx, &api.VerifyEmailParams{T: "another"})
	wantStatus(t, v, err, http.StatusTooManyRequests)
	accPlain(t, v.HTTPResponse, v.Body, account.MsgTokenLimited)
	accRetryAfter(t, v.HTTPResponse)
	// A refresh from that address works: refresh tokens are counted apart, and a good one
	// is never refused.
	refresh := func(token string, want int) *apiclient.RefreshTokensAnswer {
		t.Helper()
		r, err := from.RefreshTokensWithResponse(ctx, api.RefreshRequest{RefreshToken: token})
		wantStatus(t, r, err, want)
		return r
	}
	refresh(s.refresh, http.StatusOK)
	// A good e-mail link from that address works too.
	wantStatus(t, e.registerFrom(t, ip, "Bo", "bo@example.com", "steamed-milk-42"), nil, http.StatusCreated)
	link := e.lastLink("bo@example.com", testPublicURL+"/email-verified?t=")
	v, err = from.VerifyEmailWithResponse(ctx, &api.VerifyEmailParams{T: queryParam(t, link, "t")})
	wantStatus(t, v, err, http.StatusOK)
	e.requestReset("ada@example.com")
	token := queryParam(t, e.lastLink("ada@example.com", testPublicURL+"/reset?token="), "token")
	wantStatus(t, e.resetFrom(ip, token, "fresh-start-pw-9", "fresh-start-pw-9"), nil, http.StatusOK)
	// Bad refresh tokens have their own limit, and it does not refuse a good one either.
	for i := 0; i < 50; i++ {
		r, err := from.RefreshTokensWithResponse(ctx, api.RefreshRequest{RefreshToken: "not-a-token"})
		if err != nil {
			t.Fatalf("bad refresh %d: %v", i+1, err)
		}
		if r.StatusCode() != http.StatusUnauthorized {
			t.Fatalf("bad refresh %d: status = %d, want 401: %s", i+1, r.StatusCode(), r.Body)
		}
	}
	if r := refresh("not-a-token", http.StatusTooManyRequests); r.Headers429.RetryAfter == nil {
		t.Fatal("bad refresh over the limit: no Retry-After")
	}
	s2 := e.login("bo@example.com", "steamed-milk-42")
	refresh(s2.refresh, http.StatusOK)
}

func TestResetMailLimitDoesNotRevealARecentRegistration(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	// One address registered a moment ago (twice: a verification mail and a duplicate's
	// note), one never: the answers to reset requests follow the same pattern.
	wantStatus(t, e.registerFrom(t, "192.0.2.30", "X", "new@example.com", "brew-a-fresh-pot"), nil, http.StatusCreated)
	wantStatus(t, e.registerFrom(t, "192.0.2.30", "X", "new@example.com", "brew-a-fresh-pot"), nil, http.StatusCreated)
	pattern := func(email string, ip int) []int {
		var out []int
		for i := 0; i < 4; i++ {
			out = append(out, e.requestResetFrom(fmt.Sprintf("192.0.2.%d", ip+i), email).StatusCode())
		}
		return out
	}
	registered, unknown := pattern("new@example.com", 40), pattern("nobody@example.com", 50)
	if fmt.Sprint(unknown) != "[200 200 200 429]" {
		t.Errorf("reset answers for an address never registered: %v, want [200 200 200 429]", unknown)
	}
	if fmt.Sprint(registered) != fmt.Sprint(unknown) {
		t.Errorf("reset answers for an address just registered: %v, for one never registered %v", registered, unknown)
	}
}

func TestASignInLinkGetsTheOwnerPastALockout(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	ctx := t.Context()
	e.signUp("Ada", "ada@example.com", "brew-a-fresh-pot")
	// Wrong passwords from the owner's device lock it, and from 90 other addresses reach the
	// account's ceiling: every address is refused.
	for i := 0; i < 10; i++ {
		e.wantLogin(t, "ada@example.com", "wrong-password", http.StatusUnauthorized)
	}
	for i := 0; i < 90; i++ {
		if r := e.loginFrom(t, fmt.Sprintf("192.0.2.%d", i), "ada@example.com", "wrong-password"); r.StatusCode() != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: status = %d, want 401", i+11, r.StatusCode())
		}
	}
	e.wantLogin(t, "ada@example.com", "brew-a-fresh-pot", http.StatusTooManyRequests)
	wantStatus(t, e.loginFrom(t, "192.0.2.200", "ada@example.com", "brew-a-fresh-pot"), nil, http.StatusTooManyRequests)
	// Known, unknown or unverified: the same answer.
	reg, err := e.api.RegisterWithResponse(ctx, accRegistration("Bo", "bo@example.com", "steamed-milk-42"))
	wantStatus(t, reg, err, http.StatusCreated)
	for _, addr := range []string{"ada@example.com", "nobody@example.com", "bo@example.com"} {
		r, err := e.api.RequestLoginLinkWithResponse(ctx, api.LoginLinkRequest{Email: openapi_types.Email(addr)})
		wantStatus(t, r, err, http.StatusOK)
		if r.JSON200.Message != account.MsgLoginLinkSent {
			t.Fatalf("link for %s: message = %q, want %q", addr, r.JSON200.Message, account.MsgLoginLinkSent)
		}
	}
	// Sent raw: the typed request refuses a malformed address before sending.
	bad, err := e.api.RequestLoginLinkWithBodyWithResponse(ctx, "application/json", strings.NewReader(`{"email": "not an address"}`))
	wantStatus(t, bad, err, http.StatusBadRequest)
	if d := accDetails(t, bad.JSON400); d["email"] == "" {
		t.Fatalf("malformed address: details[email] is empty: %v", d)
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

	r, err := e.api.RedeemLoginLinkWithResponse(ctx, api.LoginLinkRedeemRequest{Token: token})
	wantStatus(t, r, err, http.StatusOK)
	if r.JSON200.User.Email != "ada@example.com" {
		t.Fatalf("redeem: user email = %q, want ada@example.com", r.JSON200.User.Email)
	}
	if r.JSON200.AccessToken == "" {
		t.Fatal("redeem: accessToken is empty")
	}
	e.wantMe(t, r.JSON200.AccessToken, http.StatusOK)
	// Once only.
	r, err = e.api.RedeemLoginLinkWithResponse(ctx, api.LoginLinkRedeemRequest{Token: token})
	wantStatus(t, r, err, http.StatusUnauthorized)
	if r.JSON401.Code != account.CodeLoginLinkBad {
		t.Fatalf("second use: code = %s, want %s", r.JSON401.Code, account.CodeLoginLinkBad)
	}
	// The link lifted the locks: the password works again, on the owner's device and elsewhere.
	e.login("ada@example.com", "brew-a-fresh-pot")
	wantStatus(t, e.loginFrom(t, "192.0.2.200", "ada@example.com", "brew-a-fresh-pot"), nil, http.StatusOK)
}

// Opening a sign-in link must not switch accounts by itself (issue 33, item 2): /login first
// asks whose account the link is for. The look-up names the account masked, and leaves the
// token as it was, however often it is asked; a used link looks up as invalid.
func TestLookingUpASignInLinkNamesItsAccountWithoutUsingIt(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	ctx := t.Context()
	e.signUp("Sam", "sam.smith@example.com", "brew-a-fresh-pot")
	r, err := e.api.RequestLoginLinkWithResponse(ctx, api.LoginLinkRequest{Email: openapi_types.Email("sam.smith@example.com")})
	wantStatus(t, r, err, http.StatusOK)
	e.drain()
	token := queryParam(t, e.lastLink("sam.smith@example.com", testPublicURL+"/login?loginToken="), "loginToken")

	for i := 0; i < 3; i++ {
		look, err := e.api.LookUpLoginLinkWithResponse(ctx, api.LoginLinkRedeemRequest{Token: token})
		wantStatus(t, look, err, http.StatusOK)
		if look.JSON200.MaskedEmail != "s•••@example.com" {
			t.Fatalf("maskedEmail = %q, want s•••@example.com", look.JSON200.MaskedEmail)
		}
		if strings.Contains(bodyOf(look), "smith") {
			t.Fatalf("the look-up tells more than the masked address: %s", bodyOf(look))
		}
	}
	if n := e.count(`SELECT count(*) FROM email_tokens WHERE purpose = 'login' AND used_at IS NULL`); n != 1 {
		t.Fatalf("%d unused sign-in tokens after the look-ups, want 1", n)
	}
	red, err := e.api.RedeemLoginLinkWithResponse(ctx, api.LoginLinkRedeemRequest{Token: token})
	wantStatus(t, red, err, http.StatusOK)
	if red.JSON200.User.Email != "sam.smith@example.com" {
		t.Fatalf("redeem: user email = %q", red.JSON200.User.Email)
	}
	for _, tok := range []string{token, "not-a-token"} {
		look, err := e.api.LookUpLoginLinkWithResponse(ctx, api.LoginLinkRedeemRequest{Token: tok})
		wantStatus(t, look, err, http.StatusUnauthorized)
		if look.JSON401.Code != account.CodeLoginLinkBad || look.JSON401.Error != account.MsgLoginLinkInvalid {
			t.Fatalf("look-up of %s: %+v", tok, look.JSON401)
		}
	}
}
