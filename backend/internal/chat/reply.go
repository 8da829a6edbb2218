package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	dbgen "github.com/percolate/percolate/gen/db"
)

// Causes a reply is cancelled with, which decide how it is stored.
var (
	errStopped   = errors.New("the reply was stopped")
	errShutdown  = errors.New("the server is shutting down")
	errDiscarded = errors.New("the message was not stored")
)

// notifyChannel is the PostgreSQL channel on which instances tell each other that a reply was
// stored ("done <session id> <status> <version>"), that a reply must stop ("stop <session
// id>"), or that a user's row or memories changed ("user <user id>", migration 00020).
const notifyChannel = "percolate_chat"

// produce writes the turn's reply into its live reply and stores it, on its own goroutine and
// under the reply's own deadline, whatever happens to the request that asked for it. A model
// reply starts at once; committed says whether the message was stored, and nothing is stored
// (or shown: the live reply is published only after the commit) for a message that was not.
func (s *Service) produce(t *Turn, committed <-chan bool) {
	l := t.live
	defer s.replies.finished(l)
	var (
		text   string
		tokens int
		err    error
	)
	if t.kind == replyModel {
		signal := t.askSignal(l)
		text, tokens, err = t.modelReply(l)
		if signal != nil && <-signal {
			text, tokens, err = t.withSignal(l, text, tokens, err)
		}
	}
	if !<-committed {
		l.finish(SendResult{Error: MsgModelFailed})
		return
	}
	if t.kind != replyModel {
		// The welcome, crisis and check-in replies are Percolate's, not the student's: free.
		text = t.fixedText()
		tokens = 0
		l.append(text)
	}
	status := StatusComplete
	if err != nil {
		status = StatusInterrupted
		if errors.Is(context.Cause(l.ctx), errStopped) {
			status = StatusStopped
		} else {
			s.log.Warn("companion reply failed", "session_id", t.session.ID, "partial", text != "", "error", err.Error())
		}
	}
	res := t.store(text, tokens, status)
	// Stored: an Attach from now on finds nothing in progress (and the stored reply), also
	// when it comes the moment the follower has the result, before this goroutine ends.
	s.replies.unpublish(l)
	l.finish(res)
}

// modelReply streams the companion's reply into l and returns what arrived, as it is to be
// stored, with its tokens. On a failure the text is what arrived before it.
func (t *Turn) modelReply(l *liveReply) (string, int, error) {
	var model strings.Builder
	if t.notice != "" {
		l.append(t.notice + "\n\n")
	}
	reply, err := t.s.provider.Stream(l.ctx, t.prompt(), func(chunk string) error {
		model.WriteString(chunk)
		l.append(chunk)
		return nil
	})
	got := model.String()
	if strings.TrimSpace(got) == "" {
		if err == nil {
			err = fmt.Errorf("%w: empty reply", companion.ErrModel)
		}
		return "", 0, err
	}
	text := got
	if t.notice != "" {
		text = t.notice + "\n\n" + got
	}
	if !t.s.provider.Offline() && t.pinned == nil && companion.Screen(got) != companion.RiskNone {
		// Whatever the model said, a reply that touches on risk carries the resources. The
		// offline engine's words are not screened as if the user had written them: its lines
		// are checked at build time (companion.TestEngineWordingNamesNoHarm), and it never
		// quotes a flagged message. Once the session's resources are pinned, they are not
		// added again.
		extra := "\n\n" + companion.ResourcesFor(t.where().Country)
		text += extra
		l.append(extra)
	}
	// Only the model's own words count: the AI notice and the resources are free.
	tokens := companion.EstimateTokens(got)
	if err == nil && reply.Usage.Reported {
		tokens = reply.Usage.CompletionTokens
	}
	return text, tokens, err
}

// askSignal asks the provider, when it can give one, for a model-side safety signal about the
// message, in parallel with the reply. The channel gets true for a positive signal; a failed,
// slow (past the provider's budget) or unreadable one is false, and nil means no provider
// signal (the offline engine).
func (t *Turn) askSignal(l *liveReply) <-chan bool {
	sg, ok := t.s.provider.(companion.Signaller)
	if !ok || t.s.provider.Offline() {
		return nil
	}
	out := make(chan bool, 1)
	go func() {
		risky, err := sg.Signal(l.ctx, t.message)
		if err != nil && l.ctx.Err() == nil {
			// t.session is not read here: it is set as the message is committed.
			t.s.log.Warn("safety signal failed; the local screen decides alone", "session_id", l.sessionID, "error", err.Error())
		}
		out <- err == nil && risky
	}()
	return out
}

// withSignal completes a model reply after a positive model-side signal, the local screen
// having found nothing: the reply, already streaming, keeps what it said and gets the
// check-in question and the resources added at its end, so that the next message is screened
// as an answer to a check-in. A model that failed before any text gives the check-in reply
// instead of an error; a reply the user stopped is left as it is.
func (t *Turn) withSignal(l *liveReply, text string, tokens int, err error) (string, int, error) {
	if errors.Is(context.Cause(l.ctx), errStopped) {
		return text, tokens, err
	}
	t.signalled = true
	if text == "" {
		checkIn := companion.CheckInReplyFor(t.where())
		reply := checkIn
		if t.notice != "" {
			reply = t.notice + "\n\n" + reply // the notice was already written
		}
		l.append(checkIn)
		return reply, 0, nil // a check-in is never charged
	}
	extra := "\n\n" + companion.CheckInQuestion
	// Resources pinned earlier in the session are not added again.
	if !companion.HasResources(text) && t.pinned == nil {
		extra += " " + companion.ResourcesFor(t.where().Country)
	}
	l.append(extra)
	return text + extra, tokens, err // the check-in question and resources are free
}

// fixedText is the reply that needs no model: the welcome, the crisis reply or the check-in
// (after the AI notice when one is due, and in place of the welcome in a new session).
func (t *Turn) fixedText() string {
	if t.kind == replyWelcome && t.opening != "" && !t.checkIn {
		return companion.WelcomeWithThread(t.user.Name, false, t.opening)
	}
	if t.kind == replyWelcome {
		// A remembered event is asked about once after its day: since is when the welcome
		// last asked (migration 00029), and store records this one when it asks.
		var since time.Time
		if t.user.ThreadAskedAt != nil {
			since = *t.user.ThreadAskedAt
		}
		thread := companion.ThreadOn(t.memories, profileOf(t.user), t.s.now(), since)
		t.threadAsked = companion.AsksHowItWent(thread)
		return companion.WelcomeWithThread(t.user.Name, t.checkIn, thread)
	}
	var reply string
	switch t.kind {
	case replyCheckIn:
		reply = companion.CheckInReplyFor(t.where())
	case replyFollowUp:
		reply = companion.FollowUpReply
	case replyAck:
		reply = companion.CrisisAck(int(t.crises))
	default:
		reply = companion.CrisisReplyFor(companion.Risk(t.risk.Category), t.where())
	}
	switch {
	case t.kind == replyCrisis && t.risk.Category == safety.Attempt:
		// An attempt under way: the emergency number comes first, before any notice.
		if t.newSession {
			return reply + "\n\n" + companion.Disclosure
		}
		if t.notice != "" {
			return reply + "\n\n" + t.notice
		}
		return reply
	case t.newSession:
		return companion.Disclosure + " " + reply
	case t.notice != "":
		return t.notice + "\n\n" + reply
	default:
		return reply
	}
}

// prompt builds the model prompt: persona, profile, what is remembered from earlier
// sessions, the newest turns that fit the budget and a summary of the earlier part (the
// model's, see context.go, and a quick one of the older turns it does not cover).
func (t *Turn) prompt() companion.Prompt {
	p := profileOf(t.user)
	kept, older := companion.TrimHistory(t.history, t.s.limits.ContextBudget)
	system := companion.BuildSystemPrompt(p, t.earlierPart(older), t.memories...) + companion.ContinuedThread(p, t.thread.title, t.thread.summary)
	checkins := moodCheckins(t.checkins)
	if t.crises > 0 {
		system += "\n\n" + companion.AfterCrisisGuidance
	} else if c := companion.CheckinContext(checkins); c != "" {
		system += "\n\n" + c // never in a session with a crisis, like the offline engine
	}
	return companion.Prompt{
		System: system, History: kept, Message: t.message,
		Profile: p, Memories: t.memories, Paced: t.paced,
		Crises: int(t.crises), AfterCrisis: t.afterCrisis, Checkins: checkins,
	}
}

func profileOf(u dbgen.User) companion.Profile {
	p := companion.Profile{FocusAreas: u.FocusAreas, PrimaryConcerns: u.PrimaryConcerns, SensitiveTopics: u.SensitiveTopics}
	if u.Country != nil {
		p.Country = *u.Country
	}
	if u.Age != nil {
		p.Age = int(*u.Age)
	}
	return p
}

// where is what the crisis texts need of the user: the country whose lines they give and the
// age.
func (t *Turn) where() companion.Where {
	p := profileOf(t.user)
	return companion.Where{Country: p.Country, Age: p.Age}
}
