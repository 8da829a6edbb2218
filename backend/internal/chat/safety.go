package chat

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/companion/safety"
	dbgen "github.com/percolate/percolate/gen/db"
)

// replyKind is what answers a message.
type replyKind int

const (
	replyModel    replyKind = iota // the companion (a model or the offline engine)
	replyWelcome                   // the fixed welcome of a new session
	replyCrisis                    // the fixed crisis reply with resources (clear risk)
	replyCheckIn                   // the fixed check-in with resources (possible risk)
	replyFollowUp                  // the follow-up to an unclear answer to the check-in
	replyAck                       // a short acknowledgement of a risk after the crisis reply
)

// screening is the screen of a message on its own, begun with its send so that it runs while
// the database answers, not after. A message's screen depends on the turns before it only
// through safety.Context.FollowsRisk, so this is its screen in every context that does not
// follow a risk; only a message that does is screened again, in its context.
//
// With a model configured, a message the screen finds possibly risky also has the model's
// classification (companion.Signaller) asked at once, in parallel with the database, so that
// decide can let it spare the student a check-in the model sees no reason for (modelSaysSafe).
type screening struct {
	msg  string
	done chan struct{}
	r    safety.Result
	// asked is closed when the model has answered (safe: it saw no risk), or failed, or ran
	// out of its signal budget; nil when the model was not asked.
	asked  chan struct{}
	safe   bool
	cancel context.CancelFunc
}

func screenAlone(msg string) *screening { return screenAsking(msg, nil, nil) }

// screen is screenAlone, asking the provider's classification of a possibly risky message
// when a model is configured (not the offline engine).
func (s *Service) screen(msg string) *screening {
	sg, ok := s.provider.(companion.Signaller)
	if !ok || s.provider.Offline() {
		return screenAlone(msg)
	}
	return screenAsking(msg, sg, func(err error) {
		s.log.Warn("safety classification failed; the offline verdict stands", "error", err.Error())
	})
}

func screenAsking(msg string, sg companion.Signaller, failed func(error)) *screening {
	s := &screening{msg: msg, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.r = safety.Screen(msg, safety.Context{})
		// Only a possible risk waits for the model: ordinary messages never ask, and a clear
		// risk or an attempt under way is answered at once.
		if sg == nil || s.r.Level != safety.Possible || s.r.Category == safety.Attempt {
			return
		}
		var ctx context.Context
		ctx, s.cancel = context.WithCancel(context.Background())
		s.asked = make(chan struct{})
		go func() {
			defer close(s.asked)
			// Signal is bounded by the provider's signal budget.
			risky, err := sg.Signal(ctx, msg)
			if err != nil && ctx.Err() == nil {
				failed(err)
			}
			s.safe = err == nil && !risky
		}()
	}()
	return s
}

// alone is the message's screen on its own, stored with it (messages.alone_level) as the
// context of the next message (see safetyContext).
func (s *screening) alone() safety.Result {
	<-s.done
	return s.r
}

// modelSaysSafe reports whether the model, asked about the message (see screenAsking), found
// no risk in it: only for risk, the message's screen on its own (a risk its context raised
// is not the model's to judge, as it sees the message alone). A model that failed, was slow
// past its budget or gave an answer that cannot be read leaves the offline verdict.
func (s *screening) modelSaysSafe(risk safety.Result) bool {
	if risk != s.alone() || s.asked == nil {
		return false
	}
	<-s.asked
	return s.safe
}

// stop gives up a classification that decide did not need.
func (s *screening) stop() {
	<-s.done
	if s.cancel != nil {
		s.cancel()
	}
}

// decide is the safety step of a send: the message's risk, screened with the previous turns
// as context (see safetyContext), and the kind of reply it gets. A clear risk gets the crisis
// reply and a possible one the check-in, unless a configured model, asked about it, sees no
// risk (modelSaysSafe): then it gets an ordinary reply and is stored as showing none (risk
// level and alone level 0, no check-in counted or pending), like any message the screen
// passes. Neither tier is ever mirrored back. An unclear answer to the check-in gets the
// follow-up instead, and once the session has had crisis replies (crises), any later risk gets
// a short acknowledgement that points to the pinned resources rather than the crisis text
// again. It is the one place the send path asks
// the safety screen (with screening and safetyContext), so the screen can change without
// touching the rest.
func decide(s *screening, c safety.Context, newSession bool, crises int32) (safety.Result, replyKind) {
	defer s.stop()
	risk := s.alone()
	if c.FollowsRisk() {
		risk = safety.Screen(s.msg, c)
	}
	switch {
	case risk.Risky() && crises > 0 && risk.Category != safety.Attempt:
		// After the crisis reply a new risk gets a short acknowledgement pointing to the
		// pinned resources; an attempt under way still gets the emergency number first.
		return risk, replyAck
	case risk.Urgent():
		return risk, replyCrisis
	case risk.Unclear:
		return risk, replyFollowUp
	case risk.Level == safety.Possible && c.Asks(risk) && !s.modelSaysSafe(risk):
		return risk, replyCheckIn
	case risk.Level == safety.Possible:
		// The model saw no risk, or the signal is weak and the student has already declined a
		// check-in in this session (safety.Context.Asks): the message is stored, and is the next
		// message's context, as one that showed none, so the levels stored agree with the
		// ordinary reply it gets.
		s.r = safety.Result{}
		return s.r, replyModel
	case newSession:
		return risk, replyWelcome
	default:
		return risk, replyModel
	}
}

// decide is the turn's safety step (the function decide) with the session's safety state as
// the send read it (t.session, the zero row for a new session; recent, its messages newest
// first, without answered and what follows it for a retry).
func (t *Turn) decide(sc *screening, c safety.Context, recent []dbgen.Message, answered uuid.UUID) {
	t.crises, t.pinned = t.session.CrisisReplies, t.session.SafetyPinned
	t.afterCrisis = repliedCrisis(recent, answered)
	// Only the starter message of a new session gets the welcome: a session opened with the
	// student's own words gets a reply to them.
	t.risk, t.kind = decide(sc, c, t.newSession && isStarter(t.message), t.crises)
}

// safetyContext is what the screen needs to know of the turns before a message, from the
// session's messages, newest first: the level of the user's previous message, whether the
// companion's latest reply was a check-in or the crisis reply (both stored as the messages'
// risk_level), and whether the student answered an earlier check-in with anything but a yes
// (a user message stored at no risk right after a reply stored at the check-in tier).
// With answered set (a retry), that message and what follows it are left out.
func safetyContext(newestFirst []dbgen.Message, answered uuid.UUID) safety.Context {
	var c safety.Context
	seenReply, seenUser, before := false, false, answered == uuid.Nil
	var newer *dbgen.Message // the message after m in the session
	for i := range newestFirst {
		m := &newestFirst[i]
		if !before {
			before = m.ID == answered
			continue
		}
		if m.Role == companion.RoleAssistant && m.RiskLevel == int16(safety.Possible) && newer != nil &&
			newer.Role == companion.RoleUser && newer.RiskLevel == 0 {
			c.Declined = true
		}
		newer = m
		if seenUser {
			if c.Declined {
				break
			}
			continue
		}
		switch m.Role {
		case companion.RoleUser:
			// The previous message's level on its own, not the one its context gave it: a
			// short message is risky as the answer to a risky one, but what follows that answer
			// ("ok", "thanks") is not risky because of it, or one risky message would make every
			// short message after it a crisis. It was stored with the message; a message stored
			// before it was kept is screened again.
			if m.AloneLevel != nil {
				c.Previous = safety.Level(*m.AloneLevel)
			} else {
				c.Previous = safety.Screen(m.Content, safety.Context{}).Level
			}
			seenUser = true
		case companion.RoleAssistant:
			// Only a reply after the previous user message counts: the one the new message
			// answers (none when that reply failed), and only when it asked the check-in
			// question or its follow-up (the crisis reply asks nothing to answer yes to).
			if !seenReply {
				seenReply, c.CheckedIn = true, m.RiskLevel == int16(safety.Possible)
				c.FollowedUp = c.CheckedIn && companion.IsFollowUp(m.Content)
			}
		}
	}
	return c
}

// repliedCrisis reports whether the companion's latest reply, in the session's messages newest
// first, was the crisis reply or an acknowledgement (stored at the clear tier); with answered
// set (a retry), that message and what follows it are left out.
func repliedCrisis(newestFirst []dbgen.Message, answered uuid.UUID) bool {
	before := answered == uuid.Nil
	for _, m := range newestFirst {
		if !before {
			before = m.ID == answered
			continue
		}
		if m.Role == companion.RoleAssistant {
			return m.RiskLevel == int16(safety.Clear)
		}
	}
	return false
}

// replyLevel is the risk_level stored with the turn's reply: the tier it answered.
func (t *Turn) replyLevel() int16 {
	switch {
	case t.kind == replyCrisis || t.kind == replyAck:
		return int16(safety.Clear)
	case t.kind == replyCheckIn || t.kind == replyFollowUp || t.signalled:
		return int16(safety.Possible)
	default:
		return 0
	}
}

// pins reports whether the turn's reply pins the session's resources, and for which kind of
// danger: a reply that asks about risk or answers it does, and the category of the latest
// clear risk wins over an earlier one; nil leaves the session as it was.
func (t *Turn) pins() *string {
	if t.kind == replyModel && !t.signalled || t.kind == replyWelcome {
		return nil
	}
	cat := string(t.risk.Category)
	if cat == "" {
		cat = string(safety.Suicide)
	}
	if t.pinned != nil && t.risk.Level != safety.Clear {
		cat = *t.pinned
	}
	return &cat
}

// crisisReplies is how many crisis replies the turn's reply adds to the session's count.
func (t *Turn) crisisReplies() int32 {
	if t.kind == replyCrisis || t.kind == replyAck {
		return 1
	}
	return 0
}

// recordRisk is what a message that screened positive leaves behind besides its session's
// check-in flag and its stored level: one more in the day's count of its tier (referrals for
// a clear risk, check-ins for a possible one), without user or content.
func recordRisk(ctx context.Context, q *dbgen.Queries, level safety.Level, day time.Time) {
	switch level {
	case safety.Clear:
		_ = q.IncrementSafetyReferrals(ctx, day)
	case safety.Possible:
		_ = q.IncrementSafetyCheckins(ctx, day)
	}
}
