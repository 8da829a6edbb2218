package voice

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
)

// newVoice runs voice on the real chat service with the offline companion, and speech through
// the OpenAI-wire test server so the request can be inspected.
func newVoice(t *testing.T, st *store.Store, limits map[string]int) (*Service, *llmtest.Server) {
	t.Helper()
	llm := llmtest.New(t)
	llm.SetSpeechAudio([]byte("ID3-spoken"))
	llm.SetTranscript("I feel a bit lighter today")
	cfg := config.LLM{BaseURL: llm.URL(), Model: "m", SpeechModel: "tts", TranscriptionModel: "stt"}
	chatSvc := chat.New(st, companion.New(config.LLM{}), chat.Options{Queue: queuetest.New(t, st), Logger: quiet})
	return NewService(chatSvc, st, NewSpeaker(cfg, quiet), NewTranscriber(cfg), entitlement.Default().With(entitlement.Overrides{VoicePerDay: limits}), quiet), llm
}

func TestVoiceIsForPaidTiers(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newVoice(t, st, nil)
	free := pgtest.User(t, st, "USER").ID
	_, _, err := svc.Send(context.Background(), free, chat.SendInput{Message: "Hello"}, "alloy")
	if !errors.Is(err, apperr.ErrForbidden) {
		t.Fatalf("USER: %v", err)
	}
	if _, err := svc.Transcribe(context.Background(), free, strings.NewReader("audio"), "a.webm"); !errors.Is(err, apperr.ErrForbidden) {
		t.Fatalf("USER transcribe: %v", err)
	}
}

func TestVoiceSendSpeaksTheReplyInTheChosenVoice(t *testing.T) {
	st := pgtest.New(t)
	svc, llm := newVoice(t, st, nil)
	u := pgtest.User(t, st, "BASIC").ID
	res, audio, err := svc.Send(context.Background(), u, chat.SendInput{Message: "Hello! I'd like to start a new conversation."}, "sage")
	if err != nil || !res.Success || res.AIResponse == "" {
		t.Fatalf("send: %+v %v", res, err)
	}
	if string(audio) != "ID3-spoken" {
		t.Fatalf("audio %q", audio)
	}
	reqs := llm.SpeechRequests()
	if len(reqs) != 1 || reqs[0].Voice != "sage" || strings.ContainsAny(reqs[0].Input, "*#`") {
		t.Fatalf("speech request: %+v", reqs)
	}
	if _, _, err := svc.Send(context.Background(), u, chat.SendInput{Message: "hi"}, "robot"); err == nil {
		t.Fatal("an unknown voice was accepted")
	}
}

func TestVoiceDailyLimitAndRefusalsDoNotCount(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newVoice(t, st, map[string]int{"BASIC": 2})
	u := pgtest.User(t, st, "BASIC").ID
	ctx := context.Background()

	// A refused message (empty) gives its voice use back.
	if _, _, err := svc.Send(ctx, u, chat.SendInput{Message: "   "}, "alloy"); err == nil {
		t.Fatal("empty transcript accepted")
	}
	res, _, err := svc.Send(ctx, u, chat.SendInput{Message: "First"}, "alloy")
	if err != nil {
		t.Fatal(err)
	}
	sid := res.SessionID
	if _, _, err := svc.Send(ctx, u, chat.SendInput{Message: "Second", SessionID: &sid}, "alloy"); err != nil {
		t.Fatal(err)
	}
	_, _, err = svc.Send(ctx, u, chat.SendInput{Message: "Third", SessionID: &sid}, "alloy")
	var le *apperr.LimitError
	if !errors.As(err, &le) || le.RetryAfter <= 0 || !strings.Contains(le.Message, "resets") {
		t.Fatalf("third: %v", err)
	}
}

func TestVoiceTranscriptsAreScreenedLikeTypedMessages(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newVoice(t, st, nil)
	u := pgtest.User(t, st, "PREMIUM").ID
	res, _, err := svc.Send(context.Background(), u, chat.SendInput{Message: "I want to end my life tonight"}, "alloy")
	if err != nil {
		t.Fatal(err)
	}
	if !companion.HasResources(res.AIResponse) {
		t.Fatalf("no crisis resources in the reply to a risky transcript: %q", res.AIResponse)
	}
}

func TestSpeechFailureKeepsTheTextReply(t *testing.T) {
	st := pgtest.New(t)
	svc, llm := newVoice(t, st, nil)
	llm.SetAudioFailure(500)
	u := pgtest.User(t, st, "BASIC").ID
	res, audio, err := svc.Send(context.Background(), u, chat.SendInput{Message: "Hello there"}, "alloy")
	if err != nil || !res.Success || res.AIResponse == "" || audio != nil {
		t.Fatalf("got %+v audio=%v err=%v", res, audio, err)
	}
}

func TestTranscribe(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newVoice(t, st, nil)
	u := pgtest.User(t, st, "BASIC").ID
	text, err := svc.Transcribe(context.Background(), u, strings.NewReader("webm-bytes"), "clip.webm")
	if err != nil || text != "I feel a bit lighter today" {
		t.Fatalf("%q %v", text, err)
	}
	none := NewService(nil, st, nil, nil, nil, quiet)
	_, err = none.Transcribe(context.Background(), u, strings.NewReader("x"), "clip.webm")
	var coded *apperr.Error
	if !errors.As(err, &coded) || coded.Message != "Voice input on this server needs Chrome, Edge or Safari." {
		t.Fatalf("without a model: %v", err)
	}
}

func usage(t *testing.T, st *store.Store, uid uuid.UUID, kind string) int {
	t.Helper()
	var n int
	if err := st.Pool().QueryRow(context.Background(), `SELECT COALESCE(sum(count), 0) FROM usage_counters WHERE user_id = $1 AND kind = $2`, uid, kind).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The voice quota is taken in the message's own transaction: a message refused for any
// reason never holds a voice use, not even for a moment, so a voice message sent at the same
// time is never refused because of it.
func TestVoiceQuotaIsTakenInTheMessagesTransaction(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newVoice(t, st, map[string]int{"BASIC": 1})
	ctx := context.Background()
	const pairs = 20
	errs := make(chan error, 2*pairs)
	users := make([]uuid.UUID, pairs)
	for i := range users {
		users[i] = pgtest.User(t, st, "BASIC").ID
	}
	start := make(chan struct{})
	for _, u := range users {
		go func() { // refused: the session does not exist
			<-start
			_, _, err := svc.Send(ctx, u, chat.SendInput{Message: "Hello", SessionID: new(uuid.New())}, "alloy")
			if !errors.Is(err, apperr.ErrNotFound) {
				err = fmt.Errorf("send to an unknown session: %v", err)
			} else {
				err = nil
			}
			errs <- err
		}()
		go func() { // admitted: the user's one voice message of the day
			<-start
			res, _, err := svc.Send(ctx, u, chat.SendInput{Message: "Hello! I'd like to start a new conversation."}, "alloy")
			if err == nil && !res.Success {
				err = fmt.Errorf("reply failed: %+v", res)
			}
			errs <- err
		}()
	}
	close(start)
	for i := 0; i < 2*pairs; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for _, u := range users {
		if v, m := usage(t, st, u, "voice"), usage(t, st, u, "chat_message"); v != 1 || m != 1 {
			t.Errorf("user %s: voice count %d, message count %d; want 1 and 1", u, v, m)
		}
	}
}

func TestAFailedVoiceReplyGivesBackBothQuotas(t *testing.T) {
	st := pgtest.New(t)
	llm := llmtest.New(t)
	model := companion.NewOpenAIWithConfig(llm.ClientConfig(), "m", companion.OpenAIOptions{})
	svc := NewService(chat.New(st, model, chat.Options{Queue: queuetest.New(t, st), Logger: quiet}), st, nil, nil, entitlement.Default().With(entitlement.Overrides{VoicePerDay: map[string]int{"BASIC": 5}}), quiet)
	u := pgtest.User(t, st, "BASIC").ID
	ctx := context.Background()
	res, _, err := svc.Send(ctx, u, chat.SendInput{Message: "Hello! I'd like to start a new conversation."}, "alloy")
	if err != nil || !res.Success {
		t.Fatal(res, err)
	}
	llm.Enqueue(llmtest.Script{Fail: 500}, llmtest.Script{Fail: 503})
	sid := res.SessionID
	res, _, err = svc.Send(ctx, u, chat.SendInput{Message: "Can you hear me?", SessionID: &sid}, "alloy")
	if err != nil || res.Success {
		t.Fatalf("failed reply: %+v %v", res, err)
	}
	if v, m := usage(t, st, u, "voice"), usage(t, st, u, "chat_message"); v != 1 || m != 1 {
		t.Fatalf("voice count %d, message count %d after a failed reply; want 1 and 1", v, m)
	}
}
