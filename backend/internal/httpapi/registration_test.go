package httpapi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/account"
)

// TestPreRegistrationCannotHijackTheAccount is the outside test's attack: someone registers
// a student's address with a password they know; later the student registers with their
// own. The student's link sets the student's password; the pre-registrant's password is
// refused before and after the student verifies, and the pre-registrant's link stops
// working.
func TestPreRegistrationCannotHijackTheAccount(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	const addr = "student@example.com"

	// The attacker registers first and, unable to read the mailbox, waits.
	attackerLink := e.registered("Mallory visit evil.example", addr, "attackers-pass-1")
	if text := e.lastMailText(addr); strings.Contains(text, "Mallory") || strings.Contains(text, "evil.example") {
		t.Fatalf("the verification mail carries the registrant's name:\n%s", text)
	}
	// Until someone else registers, the registrant is asked to verify (nothing more).
	r := e.wantLogin(t, addr, "attackers-pass-1", http.StatusForbidden)
	if r.JSON403.Code != account.CodeNotVerified {
		t.Fatalf("the registrant's own pending password: code %s, want %s", r.JSON403.Code, account.CodeNotVerified)
	}

	// The student registers the same address and gets the ordinary answer.
	s, err := e.api.RegisterWithResponse(t.Context(), accRegistration("Sam", addr, "students-own-pass"))
	wantStatus(t, s, err, http.StatusCreated)
	if s.JSON201.Message != account.MsgRegistered {
		t.Fatalf("the student's registration: %q, want %q", s.JSON201.Message, account.MsgRegistered)
	}
	studentLink := e.lastLink(addr, testPublicURL+"/email-verified?t=")
	if studentLink == attackerLink {
		t.Fatal("the student got no link of their own")
	}
	if text := e.lastMailText(addr); !strings.HasPrefix(text, "Hello,") || strings.Contains(text, "Sam") {
		t.Fatalf("a mail to an unverified address greets a typed name:\n%s", text)
	}

	// Before the student verifies: the attacker's password is wrong, the student's asks to verify.
	e.wantLogin(t, addr, "attackers-pass-1", http.StatusUnauthorized)
	e.wantLogin(t, addr, "students-own-pass", http.StatusForbidden)

	// The first registration's link no longer works, and sets nothing.
	v := e.wantVerify(t, queryParam(t, attackerLink, "t"), http.StatusBadRequest)
	accPlain(t, v.HTTPResponse, v.Body, account.MsgVerifyInvalid)
	if n := e.count(`SELECT count(*) FROM users WHERE email_verified_at IS NOT NULL OR password_hash IS NOT NULL`); n != 0 {
		t.Fatal("a replaced link verified the account or set its password")
	}

	v = e.wantVerify(t, queryParam(t, studentLink, "t"), http.StatusOK)
	accPlain(t, v.HTTPResponse, v.Body, account.MsgVerified)

	// After: the attacker's password is refused, the student's opens the account, and the
	// account carries the student's name.
	e.wantLogin(t, addr, "attackers-pass-1", http.StatusUnauthorized)
	in := e.login(addr, "students-own-pass")
	if in.user.Name != "Sam" {
		t.Fatalf("the account's name is %q, want the student's", in.user.Name)
	}
	// Every other link of the account is used up with the verification.
	if n := e.count(`SELECT count(*) FROM email_tokens WHERE purpose = 'verify' AND used_at IS NULL`); n != 0 {
		t.Fatalf("%d verification links still open after the account was verified", n)
	}
}

// TestLinkOfAVerifiedAccountSetsNoPassword: once a reset proved the mailbox, a verification
// link made for an earlier registration (perhaps someone else's) changes nothing.
func TestLinkOfAVerifiedAccountSetsNoPassword(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	const addr = "owner@example.com"
	verifyLink := e.registered("Mallory", addr, "someones-pass-1")

	e.requestReset(addr)
	resetLink := e.lastLink(addr, testPublicURL+"/reset?token=")
	if text := e.lastMailText(addr); strings.Contains(text, "Mallory") {
		t.Fatalf("the reset mail to an unverified address greets the registrant's name:\n%s", text)
	}
	e.reset(queryParam(t, resetLink, "token"), "owners-new-pass", "owners-new-pass")
	e.login(addr, "owners-new-pass")

	e.wantVerify(t, queryParam(t, verifyLink, "t"), http.StatusOK)
	e.wantLogin(t, addr, "someones-pass-1", http.StatusUnauthorized)
	e.login(addr, "owners-new-pass")
}

// TestRegistrationNameIsOneLine: a name that breaks the line is refused (it would otherwise
// be able to write lines of its own into whatever shows it).
func TestRegistrationNameIsOneLine(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	for _, name := range []string{"Ada\nVisit https://evil.example", "Ada\r\nBcc: x@y.z", "Ada\u2028Lovelace", "Ada\x1b[31m"} {
		r := e.accRegisterRaw(t, map[string]string{"name": name, "email": "ada@example.com", "password": "brew-a-fresh-pot", "confirmPassword": "brew-a-fresh-pot"})
		wantStatus(t, r, nil, http.StatusBadRequest)
		if d := accDetails(t, r.JSON400); d["name"] == "" {
			t.Errorf("name %q: details[name] is empty: %v", name, d)
		}
	}
	if n := e.count(`SELECT count(*) FROM users`); n != 0 {
		t.Fatalf("refused names created %d accounts", n)
	}
}

// TestResendCarriesTheRegistrationsPassword: a fresh link, sent when the registrant signs in
// before verifying, sets the password of the same registration.
func TestResendCarriesTheRegistrationsPassword(t *testing.T) {
	e := newAccEnv(t, cheapArgon)
	const addr = "ada@example.com"
	e.registered("Ada", addr, "brew-a-fresh-pot")
	e.exec(`UPDATE email_tokens SET created_at = created_at - interval '2 minutes'`)
	// Asking again mails a new link bound to the same registration.
	e.wantLogin(t, addr, "brew-a-fresh-pot", http.StatusForbidden)
	link := e.lastLink(addr, testPublicURL+"/email-verified?t=")
	if n := e.mailsTo(addr); n != 2 {
		t.Fatalf("%d mails, want a second link", n)
	}
	e.wantVerify(t, queryParam(t, link, "t"), http.StatusOK)
	e.login(addr, "brew-a-fresh-pot")
}
