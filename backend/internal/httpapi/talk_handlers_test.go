package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/checkin"
	"github.com/percolate/percolate/backend/internal/companion"
	"github.com/percolate/percolate/backend/internal/config"
	"github.com/percolate/percolate/backend/internal/export"
	"github.com/percolate/percolate/backend/internal/queue/queuetest"
	"github.com/percolate/percolate/backend/internal/store/pgtest"
	"github.com/percolate/percolate/gen/api"
	"github.com/percolate/percolate/gen/apiclient"
)

// talkClient is the API with chat (the offline engine), check-ins and the export on one database.
func talkClient(t *testing.T) (*apiclient.ClientWithResponses, func(role string) apiclient.RequestEditorFn) {
	t.Helper()
	st := pgtest.New(t)
	chatSvc := chat.New(st, companion.New(config.LLM{}), chat.Options{Queue: queuetest.New(t, st), Logger: discardLogger()})
	h := newTestHandler(t, Deps{Verifier: userTokens{}, Chat: chatSvc, Checkins: checkin.New(st, nil), Export: export.New(st)})
	return apiClient(t, h, "192.0.2.1"), func(role string) apiclient.RequestEditorFn { return bearerFor(t, st, role) }
}

// "Talk about it" (issue 31, §1): a chat opened from a check-in starts with the companion
// acknowledging it (mood, emotions, tags, an unflagged note), adds nothing as the user's words,
// never repeats a flagged note, and finds no other user's check-in.
func TestTalkAboutACheckin(t *testing.T) {
	ctx := context.Background()
	c, user := talkClient(t)
	ada, bob := user("USER"), user("USER")
	save := func(who apiclient.RequestEditorFn, req api.CheckinRequest) uuid.UUID {
		t.Helper()
		res, err := c.CreateCheckinWithResponse(ctx, req, who)
		wantStatus(t, res, err, http.StatusCreated)
		return res.JSON201.Checkin.Id
	}
	talk := func(who apiclient.RequestEditorFn, id uuid.UUID, sid *uuid.UUID) *apiclient.SendChatMessageAnswer {
		t.Helper()
		res, err := c.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: chat.StarterMessage, CheckinId: &id, SessionId: sid}, who)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	low := save(ada, api.CheckinRequest{Mood: 2, Emotions: &[]api.Emotion{api.Tiredness, api.Stress}, Tags: &[]api.CheckinTag{api.CheckinTagSleep, api.CheckinTagExams}, Note: new("Exams on Monday and I am behind on revision")})
	res := talk(ada, low, nil)
	wantStatus(t, res, nil, http.StatusOK)
	reply := res.JSON200.AiResponse
	for _, want := range []string{companion.Disclosure, "You said you're feeling low, with some tiredness and stress, and sleep and exams came up.", "Exams on Monday and I am behind on revision"} {
		if !strings.Contains(reply, want) {
			t.Errorf("first reply %q lacks %q", reply, want)
		}
	}
	if strings.Contains(reply, "What's on your mind today?") {
		t.Errorf("the welcome's open question stayed: %q", reply)
	}
	// The chat shows the companion's acknowledgement; no user bubble carries the check-in.
	detail, err := c.GetChatSessionWithResponse(ctx, res.JSON200.SessionId, ada)
	wantStatus(t, detail, err, http.StatusOK)
	for _, m := range detail.JSON200.Messages {
		if m.Role == api.ChatRoleUser && m.Content != chat.StarterMessage {
			t.Errorf("a user message the user did not write: %q", m.Content)
		}
	}

	// A note the crisis screen flagged is never quoted back.
	risky := save(ada, api.CheckinRequest{Mood: 1, Note: new("I want to kill myself tonight")})
	res = talk(ada, risky, nil)
	wantStatus(t, res, nil, http.StatusOK)
	if r := res.JSON200.AiResponse; strings.Contains(r, "kill myself") || !strings.Contains(r, "You said you're feeling very low.") {
		t.Errorf("flagged note: first reply %q", r)
	}

	// Another user's check-in, or an unknown one, is not found; with a session it is a 400.
	for _, id := range []uuid.UUID{low, uuid.New()} {
		if res := talk(bob, id, nil); res.StatusCode() != http.StatusNotFound {
			t.Errorf("bob talks about %s: status %d, want 404", id, res.StatusCode())
		}
	}
	sid := res.JSON200.SessionId
	res = talk(ada, low, &sid)
	wantValidationError(t, "checkinId with sessionId", res.StatusCode(), res.Body)
}

// A session started from a check-in keeps its id (issue 35's field added end to end): the
// detail, the list item and the export carry it, a chat started otherwise has none, and
// deleting the check-in keeps the session and forgets the link, in a detail read before too.
func TestATalkedAboutSessionKeepsItsCheckin(t *testing.T) {
	ctx := context.Background()
	c, user := talkClient(t)
	ada, bob := user("USER"), user("USER")

	saved, err := c.CreateCheckinWithResponse(ctx, api.CheckinRequest{Mood: 2}, ada)
	wantStatus(t, saved, err, http.StatusCreated)
	id := saved.JSON201.Checkin.Id
	talked, err := c.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: chat.StarterMessage, CheckinId: &id}, ada)
	wantStatus(t, talked, err, http.StatusOK)
	plain, err := c.SendChatMessageWithResponse(ctx, api.SendMessageRequest{Message: chat.StarterMessage}, ada)
	wantStatus(t, plain, err, http.StatusOK)
	sid := talked.JSON200.SessionId

	// links reads the session's check-in in its detail and its list item.
	links := func(sid uuid.UUID) (detail, item *uuid.UUID) {
		t.Helper()
		d, err := c.GetChatSessionWithResponse(ctx, sid, ada)
		wantStatus(t, d, err, http.StatusOK)
		l, err := c.ListChatSessionsWithResponse(ctx, nil, ada)
		wantStatus(t, l, err, http.StatusOK)
		for _, it := range *l.JSON200 {
			if it.Id == sid {
				return d.JSON200.CheckinId, it.CheckinId
			}
		}
		t.Fatalf("session %s is not listed", sid)
		return nil, nil
	}
	if d, it := links(sid); d == nil || *d != id || it == nil || *it != id {
		t.Errorf("talked-about session: detail %v, item %v, want %s", d, it, id)
	}
	if d, it := links(plain.JSON200.SessionId); d != nil || it != nil {
		t.Errorf("a chat started without a check-in: detail %v, item %v", d, it)
	}
	if l, err := c.ListChatSessionsWithResponse(ctx, nil, bob); err != nil || l.JSON200 == nil || len(*l.JSON200) != 0 {
		t.Errorf("bob's list: %s %v", l.Body, err)
	}

	exp, err := c.ExportDataWithResponse(ctx, ada)
	wantStatus(t, exp, err, http.StatusOK)
	var doc struct {
		Sessions []struct {
			ID        uuid.UUID  `json:"id"`
			CheckinID *uuid.UUID `json:"checkinId"`
		} `json:"sessions"`
	}
	exportedJSON(t, exp.Body, &doc)
	exported := 0
	for _, s := range doc.Sessions {
		if s.ID == sid && s.CheckinID != nil && *s.CheckinID == id {
			exported++
		} else if s.CheckinID != nil {
			t.Errorf("exported session %s has check-in %s", s.ID, s.CheckinID)
		}
	}
	if exported != 1 {
		t.Errorf("the export does not link the session to its check-in: %+v", doc.Sessions)
	}

	del, err := c.DeleteCheckinWithResponse(ctx, id, ada)
	wantStatus(t, del, err, http.StatusNoContent)
	if d, it := links(sid); d != nil || it != nil {
		t.Errorf("after the check-in's delete: detail %v, item %v", d, it)
	}
}
