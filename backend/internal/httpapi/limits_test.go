package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/percolate/percolate/backend/internal/account"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/contact"
	"github.com/percolate/percolate/backend/internal/reminders"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/limits"
)

// textOfLength is a value of n characters that meets every other rule of s. Characters
// outside ASCII show that characters, not bytes, are counted.
func textOfLength(s *openapi3.Schema, n int) string {
	if s.Format == "email" {
		const domain = "@example.com"
		return strings.Repeat("a", max(n-len(domain), 1)) + domain
	}
	return strings.Repeat("é", n)
}

// limitCase is one value at or just past one limit of the contract.
type limitCase struct {
	name    string
	value   any
	refused bool
	want    string // the refusal's message
}

// limitCases are the values at and just past each limit of s.
func limitCases(s *openapi3.Schema) []limitCase {
	var cs []limitCase
	if s.MaxLength != nil {
		m := int(*s.MaxLength)
		cs = append(cs,
			limitCase{fmt.Sprintf("%d characters", m), textOfLength(s, m), false, ""},
			limitCase{fmt.Sprintf("%d characters", m+1), textOfLength(s, m+1), true, fmt.Sprintf("Must be at most %d characters.", m)})
	}
	switch {
	case s.MinLength > 1:
		m := int(s.MinLength)
		cs = append(cs,
			limitCase{fmt.Sprintf("%d characters", m), textOfLength(s, m), false, ""},
			limitCase{fmt.Sprintf("%d characters", m-1), textOfLength(s, m-1), true, fmt.Sprintf("Must be at least %d characters.", m)})
	case s.MinLength == 1:
		cs = append(cs, limitCase{"empty", "", true, "This field is required."})
	}
	if s.Min != nil && s.Max != nil {
		want := fmt.Sprintf("Must be a number from %g to %g.", *s.Min, *s.Max)
		cs = append(cs,
			limitCase{"minimum", *s.Min, false, ""}, limitCase{"below", *s.Min - 1, true, want},
			limitCase{"maximum", *s.Max, false, ""}, limitCase{"above", *s.Max + 1, true, want})
	}
	return cs
}

// notRefusedFor checks that res does not refuse field (the other fields being valid, a
// refusal could only be about it).
func (c contractOp) notRefusedFor(t *testing.T, res response, field string) {
	t.Helper()
	switch {
	case c.redirectsOnly():
		if strings.Contains(res.Header().Get("Location"), "oauthError="+string(account.OIDCFailed)) {
			t.Fatalf("%s refused: %q", field, res.Header().Get("Location"))
		}
	case res.Code != http.StatusBadRequest:
	case c.refusesWithText():
		t.Fatalf("%s refused: %s", field, res.Body)
	default:
		var refusal api.ValidationError
		if err := json.Unmarshal(res.Body.Bytes(), &refusal); err != nil {
			t.Fatalf("%s: the 400 is not the contract's validation error: %v: %s", field, err, res.Body)
		}
		// A cursor the gate lets through reaches the chat service, which finds it is no page
		// it made, and a time, zone or push key reaches the reminders service, which reads
		// what it means: refusals from past the gate, which this test does not judge.
		if msg, named := refusal.Details[field]; named && (field != "cursor" || msg != chat.MsgBadCursor) && !reminders.IsMeaningRefusal(msg) {
			t.Fatalf("%s refused: details[%s] = %q", field, field, msg)
		}
	}
}

// Every limit of the contract holds at its boundary: the limit itself is accepted, one past it
// is refused naming the field, for every body field and parameter of every operation.
func TestEveryLimitHoldsAtItsBoundary(t *testing.T) {
	h := newGateHandler(t)
	covered := map[string]bool{}
	for _, c := range contractOps(t) {
		if s := c.jsonBody(); s != nil {
			for field, p := range s.Properties {
				for _, lc := range limitCases(p.Value) {
					covered[c.id+"."+field] = true
					t.Run(c.id+"/"+field+"/"+lc.name, func(t *testing.T) {
						res := c.send(h, c.target(nil), mustJSON(t, validBody(s, field, lc.value)))
						if lc.refused {
							c.refusedField(t, res, field, lc.want)
						} else {
							c.notRefusedFor(t, res, field)
						}
					})
				}
			}
		}
		for _, p := range c.op.Parameters {
			p := p.Value
			for _, lc := range limitCases(p.Schema.Value) {
				covered[c.id+"."+p.Name] = true
				t.Run(c.id+"/"+p.Name+"/"+lc.name, func(t *testing.T) {
					body := ""
					if s := c.jsonBody(); s != nil {
						body = mustJSON(t, validBody(s, "", nil))
					}
					target := c.target(nil)
					hdr := []string{"Authorization", "Bearer good"}
					switch p.In {
					case "query":
						target = c.target(map[string]string{p.Name: url.QueryEscape(fmt.Sprint(lc.value))})
					case "header":
						hdr = append(hdr, p.Name, lc.value.(string))
					}
					res := do(h, c.method, target, body, hdr...)
					switch {
					case lc.refused && c.redirectsOnly():
						c.refusedField(t, res, p.Name, "")
					case lc.refused && p.In == "header":
						// A required header's absence is not a length: only the long one counts.
						if lc.name != "empty" {
							c.refusedField(t, res, p.Name, lc.want)
						}
					case lc.refused:
						c.refusedField(t, res, p.Name, lc.want)
					default:
						c.notRefusedFor(t, res, p.Name)
					}
				})
			}
		}
	}
	mustCover(t, covered, "register.name", "register.email", "register.password", "login.password",
		"updateProfile.age", "updateProfile.focusAreas", "changePassword.newPassword", "resetPassword.password",
		"sendChatMessage.message", "sendVoiceMessage.message", "sendContactMessage.name", "sendContactMessage.message",
		"sendContactMessage.email", "searchProfileSessions.query", "verifyEmail.t", "oidcCallback.code")
}

// The domain's limits are the contract's, in every schema where they apply: a limit changed
// in one schema and not in another, or in the contract and not in the domain, fails here.
func TestDomainLimitsAreTheContracts(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	// lookup reads "Schema.property.keyword" or "operationId.parameter.keyword".
	lookup := func(ref string) float64 {
		parts := strings.Split(ref, ".")
		var s *openapi3.Schema
		if sr := spec.Components.Schemas[parts[0]]; sr != nil {
			s = sr.Value.Properties[parts[1]].Value
		} else {
			for _, c := range contractOps(t) {
				if c.id == parts[0] {
					s = c.op.Parameters.GetByInAndName("query", parts[1]).Schema.Value
				}
			}
		}
		if s == nil {
			t.Fatalf("%s is not in the contract", ref)
		}
		switch parts[2] {
		case "maxLength":
			if s.MaxLength != nil {
				return float64(*s.MaxLength)
			}
		case "minLength":
			return float64(s.MinLength)
		case "minimum":
			if s.Min != nil {
				return *s.Min
			}
		case "maximum":
			if s.Max != nil {
				return *s.Max
			}
		}
		t.Fatalf("%s has no such limit", ref)
		return 0
	}
	for _, c := range []struct {
		domain string
		value  int
		refs   []string
	}{
		{"account.MaxName", account.MaxName, []string{"RegisterRequest.name.maxLength"}},
		{"account.MaxEmail", account.MaxEmail, []string{"RegisterRequest.email.maxLength", "LoginRequest.email.maxLength", "requestPasswordReset.email.maxLength"}},
		{"account.MinPassword", account.MinPassword, []string{"RegisterRequest.password.minLength", "ResetPasswordRequest.password.minLength", "PasswordChangeRequest.newPassword.minLength"}},
		{"account.MaxPassword", account.MaxPassword, []string{"RegisterRequest.password.maxLength", "RegisterRequest.confirmPassword.maxLength",
			"ResetPasswordRequest.password.maxLength", "ResetPasswordRequest.confirmPassword.maxLength", "PasswordChangeRequest.newPassword.maxLength",
			"PasswordChangeRequest.confirmNewPassword.maxLength", "PasswordChangeRequest.currentPassword.maxLength", "LoginRequest.password.maxLength"}},
		{"account.MaxProfileText", account.MaxProfileText, []string{"ProfileUpdate.focusAreas.maxLength", "ProfileUpdate.primaryConcerns.maxLength", "ProfileUpdate.sensitiveTopics.maxLength"}},
		{"account.MinAge", account.MinAge, []string{"ProfileUpdate.age.minimum"}},
		{"account.MaxAge", account.MaxAge, []string{"ProfileUpdate.age.maximum"}},
		{"contact.MaxName", contact.MaxName, []string{"ContactRequest.name.maxLength"}},
		{"contact.MaxEmail", contact.MaxEmail, []string{"ContactRequest.email.maxLength"}},
		{"contact.MaxMessage", contact.MaxMessage, []string{"ContactRequest.message.maxLength"}},
		{"chat default MaxMessageChars", chat.DefaultLimits().MaxMessageChars, []string{"SendMessageRequest.message.maxLength", "VoiceRequest.message.maxLength"}},
	} {
		for _, ref := range c.refs {
			if got := lookup(ref); got != float64(c.value) {
				t.Errorf("%s = %d, but the contract's %s is %g", c.domain, c.value, ref, got)
			}
		}
	}
}

// The domain accepts what the contract accepts: each limit itself goes through end to end,
// against the real database.
func TestTheDomainTakesEveryLimitTheContractAllows(t *testing.T) {
	t.Run("account", func(t *testing.T) {
		e := newAccEnv(t, cheapArgon)
		longEmail := textOfLength(&openapi3.Schema{Format: "email"}, account.MaxEmail)
		longPass := strings.Repeat("é", account.MaxPassword)
		s := e.signUp(strings.Repeat("é", account.MaxName), longEmail, longPass)
		if got := s.user.Name; got != strings.Repeat("é", account.MaxName) {
			t.Fatalf("user name = %q, want %d characters", got, account.MaxName)
		}
		shortPass := "Pa55" + strings.Repeat("w", account.MinPassword-4)
		if r := e.changePassword(t, s.access, longPass, shortPass, shortPass); r.StatusCode() != http.StatusOK {
			t.Fatalf("password of %d: status = %d, want 200: %s", account.MinPassword, r.StatusCode(), r.Body)
		}
		e.login(longEmail, shortPass)
		for name, u := range map[string]api.ProfileUpdate{
			"youngest age":           {Age: new(account.MinAge)},
			"oldest age":             {Age: new(account.MaxAge)},
			"longest focusAreas":     {FocusAreas: new(strings.Repeat("é", account.MaxProfileText))},
			"longest sensitiveTopic": {SensitiveTopics: new(strings.Repeat("é", account.MaxProfileText))},
		} {
			res, err := e.api.UpdateProfileWithResponse(t.Context(), u, bearer(s.access))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if res.StatusCode() != http.StatusOK {
				t.Fatalf("%s: status = %d, want 200: %s", name, res.StatusCode(), res.Body)
			}
		}
	})
	t.Run("contact", func(t *testing.T) {
		h, _, _ := newContactHandler(t)
		res, err := apiClient(t, h, "198.51.100.7").SendContactMessageWithResponse(t.Context(), api.ContactRequest{
			Name:    strings.Repeat("é", contact.MaxName),
			Email:   openapi_types.Email(textOfLength(&openapi3.Schema{Format: "email"}, contact.MaxEmail)),
			Message: strings.Repeat("é", contact.MaxMessage),
		})
		wantStatus(t, res, err, http.StatusAccepted)
	})
	t.Run("chat", func(t *testing.T) {
		e := newChatEnv(t, nil)
		c := apiClient(t, e.h, "198.51.100.7")
		tok := e.user(t, "USER")
		e.llm.Enqueue(llmtest.Script{Chunks: []string{"Noted."}, CompletionTokens: 1})
		res, err := c.SendChatMessageWithResponse(t.Context(), api.SendMessageRequest{Message: strings.Repeat("é", chat.DefaultLimits().MaxMessageChars)}, bearer(tok))
		wantStatus(t, res, err, http.StatusOK)
		query := strings.Repeat("é", limits.SearchProfileSessionsQueryMaxLength)
		found, err := c.SearchProfileSessionsWithResponse(t.Context(), &api.SearchProfileSessionsParams{Query: &query}, bearer(tok))
		wantStatus(t, found, err, http.StatusOK)
	})
	t.Run("chat with a lower configured limit", func(t *testing.T) {
		lim := chat.DefaultLimits()
		lim.MaxMessageChars = 100
		e := newChatEnv(t, &lim)
		sid := uuid.New()
		res, err := apiClient(t, e.h, "198.51.100.7").SendChatMessageWithResponse(t.Context(), api.SendMessageRequest{Message: strings.Repeat("a", 101), SessionId: &sid}, bearer(e.user(t, "USER")))
		wantStatus(t, res, err, http.StatusBadRequest)
		if d := accDetails(t, res.JSON400); d["message"] == "" {
			t.Fatalf("details[message] is empty: %v", d)
		}
	})
}
