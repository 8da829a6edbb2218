package voice

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	dbgen "github.com/percolate/percolate/gen/db"
)

func userWithRole(t *testing.T, st *store.Store, role string) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	u, err := st.Queries().CreateUser(ctx, dbgen.CreateUserParams{Email: uuid.NewString() + "@example.com", Name: "V"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Queries().SetUserRoleByEmail(ctx, dbgen.SetUserRoleByEmailParams{Role: role, Email: u.Email}); err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// newVoice runs voice on the real chat service with the offline companion, and speech through
// the OpenAI-wire test server so the request can be inspected.
func newVoice(t *testing.T, st *store.Store, limits map[string]int) (*Service, *llmtest.Server) {
	t.Helper()
	llm := llmtest.New(t)
	llm.SetSpeechAudio([]byte("ID3-spoken"))
	llm.SetTranscript("I feel a bit lighter today")
	cfg := config.LLM{BaseURL: llm.URL(), Model: "m", SpeechModel: "tts", TranscriptionModel: "stt"}
	chatSvc := chat.New(st, companion.New(config.LLM{}), chat.Options{Queue: queuetest.New(t, st), Logger: quiet})
	return NewService(chatSvc, st, NewSpeaker(cfg, quiet), NewTranscriber(cfg), limits, quiet), llm
}

func TestVoiceIsForPaidTiers(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newVoice(t, st, nil)
	free := userWithRole(t, st, "USER")
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
	u := userWithRole(t, st, "BASIC")
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
	u := userWithRole(t, st, "BASIC")
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
	u := userWithRole(t, st, "PREMIUM")
	res, _, err := svc.Send(context.Background(), u, chat.SendInput{Message: "I want to end my life tonight"}, "alloy")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.AIResponse, "988") {
		t.Fatalf("no crisis resources in the reply to a risky transcript: %q", res.AIResponse)
	}
}

func TestSpeechFailureKeepsTheTextReply(t *testing.T) {
	st := pgtest.New(t)
	svc, llm := newVoice(t, st, nil)
	llm.SetAudioFailure(500)
	u := userWithRole(t, st, "BASIC")
	res, audio, err := svc.Send(context.Background(), u, chat.SendInput{Message: "Hello there"}, "alloy")
	if err != nil || !res.Success || res.AIResponse == "" || audio != nil {
		t.Fatalf("got %+v audio=%v err=%v", res, audio, err)
	}
}

func TestTranscribe(t *testing.T) {
	st := pgtest.New(t)
	svc, _ := newVoice(t, st, nil)
	u := userWithRole(t, st, "BASIC")
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
