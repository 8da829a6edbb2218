package chat

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	dbgen "github.com/percolate/percolate/gen/db"
)

// The messages of each tier (see safety.TestScreenTiers).
const (
	clearRisk    = "I want to kill myself"
	possibleRisk = "I can't do this anymore and I just want to disappear"
	noRisk       = "this exam is killing me"
)

// resources are what every crisis text holds, for a user whose country is not known.
var resources = []string{"local emergency number", "findahelpline.com"}

func hasResources(t *testing.T, what, reply string) {
	t.Helper()
	for _, want := range resources {
		if !strings.Contains(reply, want) {
			t.Errorf("%s lacks %q: %q", what, want, reply)
		}
	}
}

// counts are the day's safety counters: referrals (clear risk) and check-ins (possible risk).
func (f *fixture) counts(t *testing.T) (referrals, checkins int32) {
	t.Helper()
	ctx, d := context.Background(), day(*f.now.Load())
	r, err := f.st.Queries().GetSafetyReferralCount(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.st.Queries().GetSafetyCheckinCount(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	return r, c
}

// send sends msg to the session and returns the result, checking that the streamed deltas
// add up to the reply.
func (f *fixture) send(t *testing.T, uid, sid uuid.UUID, msg string) SendResult {
	t.Helper()
	var deltas strings.Builder
	res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: msg, Paced: true}, func(s string) error {
		deltas.WriteString(s)
		return nil
	})
	if err != nil || !res.Success {
		t.Fatalf("send %q: %+v %v", msg, res, err)
	}
	if deltas.String() != res.AIResponse {
		t.Fatalf("send %q: the stream %q and the reply %q differ", msg, deltas.String(), res.AIResponse)
	}
	return res
}

func TestPossibleRiskGetsTheCheckInAndItsAnswerTheCrisisReply(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"the model must not be used"}})
	// The model, asked about the possible risk, agrees with the screen.
	f.llm.SetModeration(llmtest.Moderation{Flagged: []string{"self-harm"}})

	res := f.send(t, uid, sid, possibleRisk)
	if res.AIResponse != companion.CheckInReply || !strings.Contains(res.AIResponse, companion.CheckInQuestion) {
		t.Fatalf("possible risk got %q", res.AIResponse)
	}
	hasResources(t, "the check-in", res.AIResponse)
	if res.Title == possibleRisk || res.Title != riskyTitle {
		t.Fatalf("title = %q", res.Title)
	}
	if r, c := f.counts(t); r != 0 || c != 1 {
		t.Fatalf("after the check-in: referrals %d, check-ins %d; want 0, 1", r, c)
	}

	// "tonight" is only risky as the answer to the check-in.
	res = f.send(t, uid, sid, "tonight")
	if res.AIResponse != companion.CrisisReply {
		t.Fatalf("the answer to the check-in got %q", res.AIResponse)
	}
	if r, c := f.counts(t); r != 1 || c != 1 {
		t.Fatalf("after the crisis reply: referrals %d, check-ins %d; want 1, 1", r, c)
	}
	if n := len(f.llm.Requests()); n != 0 {
		t.Fatalf("the model was asked %d times to reply to a risky message", n)
	}
	if in := f.llm.Moderated(); len(in) != 1 || in[0] != possibleRisk {
		t.Fatalf("classified %q; want the possible risk only", in)
	}

	// The stored levels: each user message's, and the tier each reply answered.
	rows, err := f.st.Queries().ListMessagesBySession(context.Background(), dbgen.ListMessagesBySessionParams{SessionID: sid, UserID: uid})
	if err != nil {
		t.Fatal(err)
	}
	var levels []int16
	for _, m := range rows {
		levels = append(levels, m.RiskLevel)
	}
	if want := []int16{0, 0, 1, 1, 2, 2}; !equal(levels, want) {
		t.Fatalf("risk levels %v, want %v", levels, want)
	}

	// The next session opens with the gentle check-in.
	open, _ := f.svc.Send(context.Background(), uid, SendInput{Message: StarterMessage}, nil)
	if !strings.Contains(open.AIResponse, companion.CheckIn) {
		t.Fatalf("no check-in in the next session: %q", open.AIResponse)
	}
}

func TestShortAnswersAreOnlyRiskyAfterACheckIn(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	for _, msg := range []string{"tonight", noRisk, "yes"} {
		f.llm.Enqueue(llmtest.Script{Chunks: []string{"Tell me more."}})
		if res := f.send(t, uid, sid, msg); res.AIResponse != "Tell me more." {
			t.Fatalf("%q with no risk before it got %q", msg, res.AIResponse)
		}
	}
	if r, c := f.counts(t); r != 0 || c != 0 {
		t.Fatalf("referrals %d, check-ins %d; want none", r, c)
	}
	// A clear risk gets the crisis reply; the crisis reply asks nothing, so a "yes" after it
	// confirms nothing and gets an ordinary reply, never the crisis text again.
	if res := f.send(t, uid, sid, clearRisk); res.AIResponse != companion.CrisisReply {
		t.Fatalf("clear risk got %q", res.AIResponse)
	}
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"I'm here."}})
	if res := f.send(t, uid, sid, "yes"); res.AIResponse != "I'm here." {
		t.Fatalf("\"yes\" after the crisis reply got %q", res.AIResponse)
	}
	// A reply to something else in between breaks the chain.
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"Good to hear."}}, llmtest.Script{Chunks: []string{"Okay."}})
	f.send(t, uid, sid, "thanks, I'm safe, I'm going to call my sister")
	if res := f.send(t, uid, sid, "tonight"); res.AIResponse != "Okay." {
		t.Fatalf("\"tonight\" two turns later got %q", res.AIResponse)
	}
}

func TestFirstMessageOfASessionGetsItsTierAfterTheNotice(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	res, err := f.svc.Send(context.Background(), uid, SendInput{Message: possibleRisk}, nil)
	if err != nil || !res.Success {
		t.Fatal(res, err)
	}
	if res.AIResponse != companion.Disclosure+" "+companion.CheckInReply {
		t.Fatalf("first message got %q", res.AIResponse)
	}
	res, err = f.svc.Send(context.Background(), uid, SendInput{SessionID: &res.SessionID, Message: "tonight"}, nil)
	if err != nil || res.AIResponse != companion.CrisisReply {
		t.Fatalf("the answer got %q (%v)", res.AIResponse, err)
	}
}

func TestSafetyContextReadsThePreviousTurns(t *testing.T) {
	msg := func(role string, level int16, content string) dbgen.Message {
		return dbgen.Message{ID: uuid.New(), Role: role, RiskLevel: level, Content: content}
	}
	u, a := companion.RoleUser, companion.RoleAssistant
	checkIn := []dbgen.Message{msg(a, 1, companion.CheckInReply), msg(u, 1, possibleRisk), msg(a, 0, "Hello"), msg(u, 0, "Hi")} // newest first
	crisis := []dbgen.Message{msg(a, 2, companion.CrisisReply), msg(u, 2, "I want to kill myself")}
	// "tonight" was a clear risk only as the answer to the check-in; what follows the crisis
	// reply to it is not screened as an answer to anything.
	answeredCheckIn := append([]dbgen.Message{msg(a, 2, companion.CrisisReply), msg(u, 2, "tonight")}, checkIn...)
	failed := []dbgen.Message{msg(u, 0, "Hi again"), msg(a, 1, companion.CheckInReply), msg(u, 1, possibleRisk)} // the last reply failed
	partial := msg(a, 0, "Part of a reply")
	answered := msg(u, 0, "tonight")
	retried := append([]dbgen.Message{partial, answered}, checkIn...)
	// The previous message's level on its own is read from the row when it was stored with it.
	level := func(m dbgen.Message, l safety.Level) dbgen.Message {
		v := int16(l)
		m.AloneLevel = &v
		return m
	}
	storedPossible := []dbgen.Message{msg(a, 0, "Hello"), level(msg(u, 0, "a message the screen alone finds nothing in"), safety.Possible)}
	storedNone := []dbgen.Message{msg(a, 2, companion.CrisisReply), level(msg(u, 2, "I want to kill myself"), safety.None)}
	cases := []struct {
		name     string
		rows     []dbgen.Message
		answered uuid.UUID
		want     safety.Context
	}{
		{"empty", nil, uuid.Nil, safety.Context{}},
		{"after a check-in", checkIn, uuid.Nil, safety.Context{Previous: safety.Possible, CheckedIn: true}},
		{"after the crisis reply", crisis, uuid.Nil, safety.Context{Previous: safety.Clear}},
		{"after the crisis reply to an answer", answeredCheckIn, uuid.Nil, safety.Context{}},
		// "Hi again" answered the check-in by moving on, though its own reply failed.
		{"after an unanswered message", failed, uuid.Nil, safety.Context{Declined: true}},
		{"a retry", retried, answered.ID, safety.Context{Previous: safety.Possible, CheckedIn: true}},
		{"a stored level", storedPossible, uuid.Nil, safety.Context{Previous: safety.Possible}},
		{"a stored level of none", storedNone, uuid.Nil, safety.Context{}},
		{"after the follow-up", append([]dbgen.Message{msg(a, 1, companion.FollowUpReply), msg(u, 1, "idk")}, checkIn...), uuid.Nil, safety.Context{CheckedIn: true, FollowedUp: true}},
		// The check-in was answered no, and the session went on: it was declined, however long ago.
		{"after a declined check-in", append([]dbgen.Message{msg(a, 0, "Fair enough"), msg(u, 0, "thanks"),
			msg(a, 0, "Good to hear"), msg(u, 0, "no, just tired")}, checkIn...), uuid.Nil, safety.Context{Declined: true}},
		{"right after a declined check-in", append([]dbgen.Message{msg(a, 0, "Good to hear"), msg(u, 0, "no, just tired")}, checkIn...),
			uuid.Nil, safety.Context{Declined: true}},
		// A check-in answered yes (stored as a risk) was not declined.
		{"after a confirmed check-in", append([]dbgen.Message{msg(a, 0, "Hello"), msg(u, 0, "hi")}, answeredCheckIn...), uuid.Nil, safety.Context{}},
	}
	for _, c := range cases {
		if got := safetyContext(c.rows, c.answered); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestOneRiskyMessageDoesNotMakeEveryShortMessageACrisis: after the check-in and the crisis
// reply to its answer, "ok thanks" gets the companion again, not the crisis reply once more.
func TestOneRiskyMessageDoesNotMakeEveryShortMessageACrisis(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	send := func(text string) string {
		t.Helper()
		res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: text}, nil)
		if err != nil || !res.Success {
			t.Fatalf("send %q: %+v %v", text, res, err)
		}
		return res.AIResponse
	}
	if got := send(possibleRisk); got != companion.CheckInReply {
		t.Fatalf("the possible risk got %q", got)
	}
	if got := send("tonight"); got != companion.CrisisReply {
		t.Fatalf("the answer to the check-in got %q", got)
	}
	if got := send("ok thanks"); got == companion.CrisisReply || got == companion.CheckInReply {
		t.Fatalf("a short message after the crisis reply got %q", got)
	}
	// Each message is stored with its level in its context and on its own, which the next
	// send reads instead of screening the message again: "tonight" was a clear risk only as
	// the answer to the check-in.
	rows, err := f.st.Pool().Query(context.Background(), `SELECT content, risk_level, alone_level FROM messages
		WHERE session_id = $1 AND role = 'user' ORDER BY created_at`, sid)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var content string
		var risk int16
		var alone *int16
		if err := rows.Scan(&content, &risk, &alone); err != nil {
			t.Fatal(err)
		}
		if alone == nil {
			t.Fatalf("%q was stored without its level on its own", content)
		}
		got = append(got, fmt.Sprintf("%d/%d", risk, *alone))
	}
	if want := []string{"0/0", "1/1", "2/0", "0/0"}; !equal(got, want) { // the first opened the session
		t.Fatalf("levels in context/on its own: %v, want %v", got, want)
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// signalFixture talks to an llmtest server whose model-side safety signal has the budget.
func signalFixture(t *testing.T, budget time.Duration) *fixture {
	f := newFixture(t, true, nil)
	f.provider = companion.NewOpenAIWithConfig(f.llm.ClientConfig(), "test-model", companion.OpenAIOptions{IdleTimeout: 2 * time.Second, SignalBudget: budget})
	f.svc = f.instance(t, Options{})
	return f
}

func TestModelSignalAddsTheCheckInToTheReply(t *testing.T) {
	f := signalFixture(t, 5*time.Second)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	f.llm.SetModeration(llmtest.Moderation{Flagged: []string{"self-harm/intent"}})
	msg := "I've been feeling off lately"
	if safety.Screen(msg, safety.Context{}).Risky() {
		t.Skip("the local screen now finds this message risky; pick one it misses")
	}
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"That sounds ", "like a lot."}})
	res := f.send(t, uid, sid, msg)
	want := "That sounds like a lot.\n\n" + companion.CheckInQuestion + " " + companion.CrisisResources
	if res.AIResponse != want {
		t.Fatalf("reply = %q, want %q", res.AIResponse, want)
	}
	if in := f.llm.Moderated(); len(in) != 1 || in[0] != msg {
		t.Fatalf("moderation inputs = %q", in)
	}
	if r, c := f.counts(t); r != 0 || c != 1 {
		t.Fatalf("referrals %d, check-ins %d; want 0, 1", r, c)
	}
	// The next message is screened as the answer to a check-in.
	f.llm.SetModeration(llmtest.Moderation{})
	if res := f.send(t, uid, sid, "tonight"); res.AIResponse != companion.CrisisReply {
		t.Fatalf("the answer got %q", res.AIResponse)
	}
}

func TestModelSignalWithTheModelDownGivesTheCheckIn(t *testing.T) {
	f := signalFixture(t, 5*time.Second)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	f.llm.SetModeration(llmtest.Moderation{Flagged: []string{"self-harm"}})
	f.llm.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 500})
	res := f.send(t, uid, sid, "I've been feeling off lately")
	if res.AIResponse != companion.CheckInReply {
		t.Fatalf("reply = %q", res.AIResponse)
	}
}

func TestNoModelSignalChangesNothing(t *testing.T) {
	for name, m := range map[string]llmtest.Moderation{
		"negative":         {},
		"other categories": {Flagged: []string{"violence", "harassment"}},
		"slow":             {Stall: true},
		"down":             {Fail: http.StatusServiceUnavailable},
		"garbled":          {Garbage: true},
	} {
		t.Run(name, func(t *testing.T) {
			f := signalFixture(t, 300*time.Millisecond)
			uid := f.user(t, "BASIC")
			sid := f.newSession(t, uid)
			f.llm.SetModeration(m)
			f.llm.Enqueue(llmtest.Script{Chunks: []string{"That sounds ", "like a lot."}})
			if res := f.send(t, uid, sid, "My week has been long"); res.AIResponse != "That sounds like a lot." {
				t.Fatalf("reply = %q", res.AIResponse)
			}
			// And the local screen decides alone, whatever the signal, except that a possible
			// risk the model answers is safe gets an ordinary reply (askmodel_test.go).
			safe := m.Fail == 0 && !m.Stall && !m.Garbage
			if safe {
				f.llm.SetModeration(llmtest.Moderation{Fail: http.StatusServiceUnavailable})
			}
			if res := f.send(t, uid, sid, possibleRisk); res.AIResponse != companion.CheckInReply {
				t.Fatalf("possible risk got %q", res.AIResponse)
			}
			f.llm.SetModeration(m)
			if res := f.send(t, uid, sid, "tonight"); res.AIResponse != companion.CrisisReply {
				t.Fatalf("the answer got %q", res.AIResponse)
			}
			if r, c := f.counts(t); r != 1 || c != 1 {
				t.Fatalf("referrals %d, check-ins %d; want 1, 1", r, c)
			}
		})
	}
}

func TestARiskyMessageIsWithheldFromTheModelAndTheSummary(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "BASIC")
	sid := f.newSession(t, uid)
	risky := "I want to kill myself, I have the pills from the bathroom cabinet"
	if res := f.send(t, uid, sid, risky); res.AIResponse != companion.CrisisReply {
		t.Fatalf("risky message got %q", res.AIResponse)
	}
	f.llm.Enqueue(llmtest.Script{Chunks: []string{"I'm glad you're still here with me."}})
	f.send(t, uid, sid, "I'm still here. Can we talk about something else for a bit?")
	reqs := f.llm.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests", len(reqs))
	}
	withheld := false
	for _, m := range reqs[0].Messages {
		if strings.Contains(m.Content, "cabinet") || strings.Contains(m.Content, "kill myself") {
			t.Fatalf("the model was given the risky message: %q", m.Content)
		}
		withheld = withheld || m.Content == companion.Withheld
	}
	if !withheld {
		t.Fatalf("the risky turn is missing from the prompt: %+v", reqs[0].Messages)
	}
	// The summary that falls back to the offline engine quotes the user, but never that.
	rows, err := f.st.Queries().ListMessagesBySession(context.Background(), dbgen.ListMessagesBySessionParams{SessionID: sid, UserID: uid})
	if err != nil {
		t.Fatal(err)
	}
	var transcript []companion.Turn
	for _, m := range rows {
		transcript = append(transcript, turnOf(m))
	}
	sum := companion.OfflineSummary(withoutOpening(transcript))
	if strings.Contains(sum.Text, "cabinet") || strings.Contains(sum.Text, "kill") || strings.Contains(sum.Text, "withheld") {
		t.Fatalf("summary = %q", sum.Text)
	}
}

// TestOfflineRepliesAreNotScreenedAsTheUsersWords: an ordinary conversation with the offline
// engine gets no resources tacked onto its replies. The engine's words are checked at build
// time; screening them as if the student had written them added the resources to ordinary
// replies ("How have you been looking after yourself around your loan?").
func TestOfflineRepliesAreNotScreenedAsTheUsersWords(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	for _, msg := range []string{"money stress again", "my loan hasn't come through yet", "there was some problem with my form",
		"i have like 40 quid for 2 weeks", "rent was already paid thankfully", "just food and bus"} {
		res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: msg}, nil)
		if err != nil || !res.Success {
			t.Fatalf("send %q: %+v %v", msg, res, err)
		}
		if strings.Contains(res.AIResponse, companion.CrisisResources) {
			t.Errorf("%q got the resources: %q", msg, res.AIResponse)
		}
	}
}

// A user's country picks the lines of every crisis text, and an attempt under way is answered
// with that country's emergency number first, whatever the model would say.
func TestCrisisRepliesGiveTheLinesOfTheUsersCountry(t *testing.T) {
	f := newFixture(t, true, nil)
	uid := f.user(t, "USER")
	if _, err := f.st.Queries().UpdateProfile(t.Context(), dbgen.UpdateProfileParams{ID: uid, SetCountry: true, Country: new("GB")}); err != nil {
		t.Fatal(err)
	}
	f.llm.SetDefault(llmtest.Script{Chunks: []string{"the model must not be used"}})
	sid := f.newSession(t, uid)
	res := f.send(t, uid, sid, clearRisk)
	if res.AIResponse != companion.CrisisReplyFor(companion.RiskSuicide, companion.Where{Country: "GB"}) {
		t.Fatalf("GB crisis reply = %q", res.AIResponse)
	}
	for _, want := range []string{"999", "116 123", "findahelpline.com"} {
		if !strings.Contains(res.AIResponse, want) {
			t.Errorf("GB crisis reply lacks %q", want)
		}
	}
	if strings.Contains(res.AIResponse, "988") {
		t.Errorf("a UK user got a US line: %q", res.AIResponse)
	}
	sid = f.newSession(t, uid)
	res = f.send(t, uid, sid, "i already took all my pills")
	if !strings.HasPrefix(res.AIResponse, "Please call 999 now") {
		t.Fatalf("attempt under way got %q", res.AIResponse)
	}
	if strings.Contains(strings.ToLower(res.AIResponse), "pill") {
		t.Fatalf("the reply mirrors the means: %q", res.AIResponse)
	}
}
