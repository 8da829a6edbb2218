package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/llmtest"
)

// A chat opened on the page without an id shows the welcome there and sends the student's
// first words with no session id: they must get a reply to what they say, not the welcome a
// second time (issue 36, item 1), from a model and from the offline engine.
func TestNewSessionOpenedWithOwnWordsGetsAReplyNotTheWelcome(t *testing.T) {
	msg := "My exams start next week and I keep putting off revision."
	for _, llm := range []bool{true, false} {
		name := "offline"
		if llm {
			name = "model"
		}
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, llm, nil)
			uid := f.user(t, "USER")
			if llm {
				f.llm.Enqueue(llmtest.Script{Chunks: []string{"Putting it off ", "sounds stressful."}, CompletionTokens: 5})
			}
			res, err := f.svc.Send(context.Background(), uid, SendInput{Message: msg}, nil)
			if err != nil || !res.Success {
				t.Fatalf("send: %+v %v", res, err)
			}
			welcome := companion.Welcome("Alex Doe", false)
			if strings.Contains(res.AIResponse, "welcome to Percolate") || strings.Contains(res.AIResponse, "What's on your mind today?") {
				t.Fatalf("the first words got the welcome: %q (welcome %q)", res.AIResponse, welcome)
			}
			// The session still starts with the AI disclosure, before the reply.
			if !strings.HasPrefix(res.AIResponse, companion.Disclosure+"\n\n") || len(res.AIResponse) <= len(companion.Disclosure)+2 {
				t.Fatalf("reply = %q", res.AIResponse)
			}
			if llm && (len(f.llm.Requests()) != 1 || !strings.HasSuffix(res.AIResponse, "Putting it off sounds stressful.")) {
				t.Fatalf("model requests %d, reply %q", len(f.llm.Requests()), res.AIResponse)
			}
			if res.Title == DefaultTitle {
				t.Fatalf("title = %q", res.Title)
			}
			// The starter still opens with the welcome, and the next message is answered.
			res2, err := f.svc.Send(context.Background(), uid, SendInput{Message: StarterMessage}, nil)
			if err != nil || !strings.Contains(res2.AIResponse, "welcome to Percolate") {
				t.Fatalf("starter: %+v %v", res2, err)
			}
			if llm {
				f.llm.Enqueue(llmtest.Script{Chunks: []string{"Tell me more."}, CompletionTokens: 3})
			}
			sid := res2.SessionID
			res3, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: msg}, nil)
			if err != nil || !res3.Success || strings.Contains(res3.AIResponse, "welcome to Percolate") || strings.HasPrefix(res3.AIResponse, companion.Disclosure) {
				t.Fatalf("after the starter: %+v %v", res3, err)
			}
		})
	}
}

// After a positive screen in an earlier session, a session opened with the student's own
// words keeps the check-in's remembering line before the reply.
func TestNewSessionWithOwnWordsKeepsTheCheckIn(t *testing.T) {
	f := newFixture(t, false, nil)
	uid := f.user(t, "USER")
	sid := f.newSession(t, uid)
	res, err := f.svc.Send(context.Background(), uid, SendInput{SessionID: &sid, Message: clearRisk}, nil)
	if err != nil || !companion.HasResources(res.AIResponse) {
		t.Fatalf("crisis: %+v %v", res, err)
	}
	res, err = f.svc.Send(context.Background(), uid, SendInput{Message: "I slept a bit better and had lunch with a friend."}, nil)
	if err != nil || !strings.HasPrefix(res.AIResponse, companion.Disclosure+" "+companion.CheckInOpening+"\n\n") {
		t.Fatalf("reply = %q %v", res.AIResponse, err)
	}
}
