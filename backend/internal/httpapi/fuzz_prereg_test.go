package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/percolate/percolate/backend/internal/queue/queuetest"
)

// The pre-registration attack of issue 33, run around the contract fuzzing: someone
// registers an address with a password they know before its owner does, and the fuzzing
// (whose hostile values include the address) registers, signs in and asks for links with it
// in between. When the owner finally registers and follows their link, only their password
// opens the account.
const (
	preRegAddr       = "mailbox-owner@example.com"
	preRegAttackerPW = "pre-registrants-pw"
	preRegOwnerPW    = "the-mailbox-owners-pw"
)

// preRegister is the attacker's registration, before the fuzzing.
func (e *fuzzEnv) preRegister() {
	e.t.Helper()
	e.register("Mallory", preRegAttackerPW)
}

func (e *fuzzEnv) register(name, pw string) {
	e.t.Helper()
	body := mustJSON(e.t, map[string]any{"name": name, "email": preRegAddr, "password": pw, "confirmPassword": pw})
	if res := e.send(http.MethodPost, "/api/auth/register", "application/json", []byte(body)); res.Code != http.StatusCreated {
		e.t.Fatalf("register %s: %d %s", preRegAddr, res.Code, res.Body)
	}
}

// checkPreRegistration is the owner's registration and verification, after the fuzzing; it
// fails the test when the attacker's password (or any the fuzzing chose) opens the account.
func (e *fuzzEnv) checkPreRegistration() {
	e.t.Helper()
	ctx := context.Background()
	e.register("Owner", preRegOwnerPW)
	// The fuzzing is over: of the jobs it queued, only the address's mails still matter.
	if _, err := e.st.Pool().Exec(ctx, `DELETE FROM river_job WHERE NOT (kind = 'account.mail' AND
		args->>'userId' IN (SELECT id::text FROM users WHERE lower(email) = $1))`, preRegAddr); err != nil {
		e.t.Fatal(err)
	}
	queuetest.Start(e.t, e.q)
	queuetest.Drain(e.t, e.q)
	var link string
	for _, m := range e.smtp.Messages() {
		if len(m.To) == 0 || !strings.EqualFold(m.To[0], preRegAddr) {
			continue
		}
		text, err := m.TextBody()
		if err != nil {
			e.t.Fatal(err)
		}
		for _, l := range linkRE.FindAllString(text, -1) {
			if strings.HasPrefix(l, testPublicURL+"/email-verified?t=") {
				link = l
			}
		}
	}
	if link == "" {
		e.t.Fatal("pre-registration: the owner got no verification link")
	}
	token := link[strings.Index(link, "?t=")+3:]
	if res := e.send(http.MethodGet, "/api/auth/verify?t="+token, "", nil); res.Code != http.StatusOK {
		e.t.Fatalf("pre-registration: the owner's newest link: %d %s", res.Code, res.Body)
	}
	login := func(pw string) int {
		body := mustJSON(e.t, map[string]any{"email": preRegAddr, "password": pw})
		return e.send(http.MethodPost, "/api/auth/login", "application/json", []byte(body)).Code
	}
	if code := login(preRegAttackerPW); code != http.StatusUnauthorized {
		e.t.Errorf("pre-registration: the pre-registrant's password got %d after the owner verified, want 401", code)
	}
	if code := login(preRegOwnerPW); code != http.StatusOK {
		e.t.Errorf("pre-registration: the owner's password got %d, want 200", code)
	}
}
