package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/gen/api"
)

// Codes of the streams' error event: the companion could not reply, or the reply was stopped
// before any text (the user's message is stored either way).
const (
	codeCompanionUnavailable = "COMPANION_UNAVAILABLE"
	codeReplyStopped         = "REPLY_STOPPED"
)

// chatUser returns the chat service and the caller's user id.
func (s *Server) chatUser(ctx context.Context) (*chat.Service, uuid.UUID, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, uuid.Nil, err
	}
	return s.deps.Chat, c.UserID, nil
}

// chatSendInput is a send's input; with a check-in ("Talk about it") the new session's welcome
// acknowledges it, and the session keeps the check-in's id. Another user's check-in is not
// found (404), like an unknown one. A new session may continue an earlier one's thread (the
// chat service finds no other user's session either).
func (s *Server) chatSendInput(ctx context.Context, uid uuid.UUID, body *api.SendMessageRequest) (chat.SendInput, error) {
	if body == nil {
		return chat.SendInput{}, nil
	}
	in := chat.SendInput{SessionID: body.SessionId, Message: body.Message, Continues: body.ContinuesSessionId}
	if body.ContinuesSessionId != nil && body.SessionId != nil {
		return in, apperr.Invalid("continuesSessionId", "Only a new conversation can continue an earlier one.")
	}
	if body.CheckinId == nil {
		return in, nil
	}
	if body.SessionId != nil {
		return in, apperr.Invalid("checkinId", "Only a new conversation can start from a check-in.")
	}
	if s.deps.Checkins == nil {
		return in, fmt.Errorf("check-in: %w", apperr.ErrNotFound)
	}
	c, err := s.deps.Checkins.Get(ctx, uid, *body.CheckinId)
	if err != nil {
		return in, err
	}
	in.Opening, in.CheckinID = c.Acknowledgement(), &c.ID
	return in, nil
}

func apiSendResult(r chat.SendResult) api.SendMessageResponse {
	out := api.SendMessageResponse{
		Success: r.Success, SessionId: r.SessionID, AiResponse: r.AIResponse,
		SessionTokensUsed: r.TokensUsed, SessionTokenLimit: r.TokenLimit, SessionEnded: r.SessionEnded,
	}
	if r.Title != "" {
		out.Title = &r.Title
	}
	if r.EndReason != "" {
		out.EndReason = &r.EndReason
	}
	if r.Error != "" {
		out.Error = &r.Error
	}
	if r.Status == chat.StatusStopped {
		st := api.MessageStatus(r.Status)
		out.ReplyStatus = &st
	}
	out.SafetyPinned = apiPinned(r.SafetyPinned)
	return out
}

// apiPinned is a session's pinned resources, nil (absent) while nothing is pinned.
func apiPinned(category *string) *api.SafetyPinned {
	if category == nil {
		return nil
	}
	return &api.SafetyPinned{Category: *category}
}

func apiMessage(m chat.Message) api.Message {
	return apiMessages([]chat.Message{m})[0]
}

// apiMessages is apiMessage for a session's messages, with their statuses in one shared
// allocation rather than one a message.
func apiMessages(in []chat.Message) []api.Message {
	out := make([]api.Message, len(in))
	statuses := make([]api.MessageStatus, len(in)) // what each message's Status points to
	for i, m := range in {
		statuses[i] = api.MessageStatus(m.Status)
		out[i] = api.Message{Id: m.ID, Content: m.Content, Role: api.ChatRole(m.Role), Timestamp: m.CreatedAt, TokenCount: m.TokenCount, Status: &statuses[i]}
	}
	return out
}

func apiEmotions(in []string) []api.Emotion {
	out := make([]api.Emotion, 0, len(in))
	for _, e := range in {
		out = append(out, api.Emotion(e))
	}
	return out
}

func apiSessionItem(v chat.Session) api.SessionListItem {
	return apiSessionItems([]chat.Session{v})[0]
}

// apiSessionItems is apiSessionItem for a page of sessions, with the values the items point
// to (and their emotions) in a few shared allocations rather than several an item.
func apiSessionItems(in []chat.Session) []api.SessionListItem {
	nEmotions := 0
	for _, v := range in {
		nEmotions += len(v.Emotions)
	}
	out := make([]api.SessionListItem, len(in))
	lasts := make([]string, len(in))
	feelings := make([]api.ClosingFeeling, len(in))
	emotions := make([]api.Emotion, 0, nEmotions)
	for i, v := range in {
		start := len(emotions)
		for _, e := range v.Emotions {
			emotions = append(emotions, api.Emotion(e))
		}
		item := &out[i]
		*item = api.SessionListItem{
			Id: v.ID, Title: v.Title, Status: api.SessionStatus(v.Status), UpdatedAt: v.UpdatedAt,
			SessionSummary: v.Summary, SessionEmotions: emotions[start:len(emotions):len(emotions)],
			CheckinId: v.CheckinID,
		}
		if v.LastMessage != "" {
			lasts[i] = v.LastMessage
			item.LastMessage = &lasts[i]
		}
		if v.ClosingFeeling != nil {
			feelings[i] = api.ClosingFeeling(*v.ClosingFeeling)
			item.ClosingFeeling = &feelings[i]
		}
	}
	return out
}

// SendChatMessage sends a message and answers with the whole reply.
func (s *Server) SendChatMessage(ctx context.Context, req api.SendChatMessageRequestObject) (api.SendChatMessageResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	in, err := s.chatSendInput(ctx, uid, req.Body)
	if err != nil {
		return nil, err
	}
	res, err := svc.Send(ctx, uid, in, nil)
	if err != nil {
		return nil, err
	}
	return api.SendChatMessage200JSONResponse(apiSendResult(res)), nil
}

// StreamChatMessage sends a message and answers with server-sent events: `delta` for each
// piece of the reply as it is produced, then `done` or `error`. Refusals found before the
// stream starts are ordinary JSON errors.
func (s *Server) StreamChatMessage(ctx context.Context, req api.StreamChatMessageRequestObject) (api.StreamChatMessageResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	in, err := s.chatSendInput(ctx, uid, req.Body)
	if err != nil {
		return nil, err
	}
	in.Paced = true
	turn, err := svc.Begin(ctx, uid, in)
	if err != nil {
		return nil, err
	}
	return replyEvents{ctx: ctx, follow: turn.FollowFlushing}, nil
}

// AttachChatReply follows the reply in progress of one of the caller's sessions again.
func (s *Server) AttachChatReply(ctx context.Context, req api.AttachChatReplyRequestObject) (api.AttachChatReplyResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	a, err := svc.Attach(ctx, uid, req.Id)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return api.AttachChatReply204Response{}, nil
	}
	return replyEvents{ctx: ctx, follow: a.FollowFlushing}, nil
}

// RetryChatReply answers the last message of one of the caller's sessions again, as a stream.
func (s *Server) RetryChatReply(ctx context.Context, req api.RetryChatReplyRequestObject) (api.RetryChatReplyResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	turn, err := svc.Retry(ctx, uid, req.Id, true)
	if err != nil {
		return nil, err
	}
	return replyEvents{ctx: ctx, follow: turn.FollowFlushing}, nil
}

// StopChatReply stops the reply in progress of one of the caller's sessions.
func (s *Server) StopChatReply(ctx context.Context, req api.StopChatReplyRequestObject) (api.StopChatReplyResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	reply, inProgress, err := svc.Stop(ctx, uid, req.Id)
	if err != nil {
		return nil, err
	}
	if !inProgress {
		return api.StopChatReply204Response{}, nil
	}
	var out api.StopReplyResponse
	if reply != nil {
		m := apiMessage(*reply)
		out.Reply = &m
	}
	return api.StopChatReply200JSONResponse(out), nil
}

// replyEvents writes a reply as server-sent events: `delta` for each piece of text, then `done`
// or `error`. What is written is flushed whenever the reply has nothing more to give at once:
// the headers go with the first delta when the reply has text by then (one write, not two),
// and no delta waits in the buffer while the reply does. A client that goes away only stops
// the writing: the reply goes on and is stored.
type replyEvents struct {
	ctx    context.Context
	follow func(ctx context.Context, onDelta func(string) error, flush func() error) (chat.SendResult, error)
}

func (e replyEvents) VisitStreamChatMessageResponse(w http.ResponseWriter) error { return e.write(w) }
func (e replyEvents) VisitAttachChatReplyResponse(w http.ResponseWriter) error   { return e.write(w) }
func (e replyEvents) VisitRetryChatReplyResponse(w http.ResponseWriter) error    { return e.write(w) }

func (e replyEvents) write(w http.ResponseWriter) error {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	write := func(event string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		return err
	}
	send := func(event string, v any) error {
		if err := write(event, v); err != nil {
			return err
		}
		return rc.Flush()
	}
	res, err := e.follow(e.ctx, func(text string) error {
		return write("delta", api.StreamDelta{Text: text})
	}, rc.Flush)
	if err != nil {
		return nil // the client is gone; the reply goes on without it
	}
	if !res.Success {
		code := codeCompanionUnavailable
		if res.Stopped {
			code = codeReplyStopped
		}
		_ = send("error", api.StreamError{Code: code, Error: res.Error, Message: res.Error, SessionId: res.SessionID})
		return nil
	}
	_ = send("done", apiSendResult(res))
	return nil
}

// ListChatSessions lists one page of the caller's sessions.
func (s *Server) ListChatSessions(ctx context.Context, req api.ListChatSessionsRequestObject) (api.ListChatSessionsResponseObject, error) {
	page, uid, link, err := s.sessionsPage(ctx, "/api/chat/sessions", "", req.Params.Limit, req.Params.Cursor)
	if err != nil {
		return nil, err
	}
	return listAnswer{page: page, link: link, key: listKey(uid, req.Params.Cursor, req.Params.Limit), kept: s.kept}, nil
}

// sessionsPage reads one page of the caller's sessions (those matching query when it is not
// empty) and, when there is a next page, its Link header: path with the request's query and
// limit and the next cursor.
func (s *Server) sessionsPage(ctx context.Context, path, query string, limit *int, cursor *string) (chat.Page, uuid.UUID, *string, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return chat.Page{}, uid, nil, err
	}
	n := 0
	if limit != nil {
		n = *limit
		if n == 0 { // the contract's minimum is 1; 0 is not "the default"
			return chat.Page{}, uid, nil, apperr.Invalid("limit", fmt.Sprintf("Must be between 1 and %d.", chat.MaxPageLimit))
		}
	}
	c := ""
	if cursor != nil {
		if c = *cursor; c == "" {
			return chat.Page{}, uid, nil, apperr.Invalid("cursor", chat.MsgBadCursor)
		}
	}
	page, err := svc.Sessions(ctx, uid, query, n, c)
	if err != nil {
		return chat.Page{}, uid, nil, err
	}
	if page.Next == "" {
		return page, uid, nil, nil
	}
	next := url.Values{"cursor": {page.Next}}
	if query != "" {
		next.Set("query", query)
	}
	if limit != nil {
		next.Set("limit", strconv.Itoa(*limit))
	}
	link := "<" + path + "?" + next.Encode() + `>; rel="next"`
	return page, uid, &link, nil
}

// GetChatSession returns one of the caller's sessions with its messages.
func (s *Server) GetChatSession(ctx context.Context, req api.GetChatSessionRequestObject) (api.GetChatSessionResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	d, err := svc.Detail(ctx, uid, req.Id)
	if err != nil {
		return nil, err
	}
	return detailAnswer{d: d, kept: s.kept}, nil
}

// sessionDetailOf is a session's detail as the API answers it.
func sessionDetailOf(d *chat.Detail) sessionDetailJSON {
	out := sessionHeadOf(d)
	out.Messages = apiMessages(d.Messages)
	return out
}

// sessionHeadOf is the answer without its messages.
func sessionHeadOf(d *chat.Detail) sessionDetailJSON {
	out := sessionDetailJSON{
		SessionId: d.ID, Title: d.Title, Status: api.SessionStatus(d.Status), IsActive: d.Active,
		SessionTokensUsed: d.TokensUsed, SessionTokenLimit: d.TokenLimit, EndReason: d.EndReason,
		SessionSummary: d.Summary, ReplyInProgress: &d.ReplyInProgress, SafetyPinned: apiPinned(d.SafetyPinned),
		CheckinId: d.CheckinID,
	}
	if d.Summary != nil || len(d.Emotions) > 0 {
		em := apiEmotions(d.Emotions)
		out.SessionEmotions = &em
	}
	return out
}

// DeleteChatSession deletes one of the caller's sessions.
func (s *Server) DeleteChatSession(ctx context.Context, req api.DeleteChatSessionRequestObject) (api.DeleteChatSessionResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	if err := svc.Delete(ctx, uid, req.Id); err != nil {
		return nil, err
	}
	return api.DeleteChatSession204Response{}, nil
}

// EndChatSession ends one of the caller's sessions and queues its summary.
func (s *Server) EndChatSession(ctx context.Context, req api.EndChatSessionRequestObject) (api.EndChatSessionResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	feeling := ""
	if req.Body != nil && req.Body.Feeling != nil {
		feeling = string(*req.Body.Feeling)
	}
	v, err := svc.End(ctx, uid, req.Id, feeling)
	if err != nil {
		return nil, err
	}
	return api.EndChatSession200JSONResponse(apiSessionItem(v)), nil
}

// GetChatTakeaway answers one thing to take from one of the caller's sessions.
func (s *Server) GetChatTakeaway(ctx context.Context, req api.GetChatTakeawayRequestObject) (api.GetChatTakeawayResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	text, err := svc.Takeaway(ctx, uid, req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetChatTakeaway200JSONResponse{Takeaway: text}, nil
}

// SearchProfileSessions lists one page of the caller's sessions matching the query by title,
// last message or id.
func (s *Server) SearchProfileSessions(ctx context.Context, req api.SearchProfileSessionsRequestObject) (api.SearchProfileSessionsResponseObject, error) {
	query := ""
	if req.Params.Query != nil {
		query = *req.Params.Query
	}
	page, _, link, err := s.sessionsPage(ctx, "/api/profile/sessions", query, req.Params.Limit, req.Params.Cursor)
	if err != nil {
		return nil, err
	}
	return api.SearchProfileSessions200JSONResponse{Body: apiSessionItems(page.Items), Headers: api.SearchProfileSessions200ResponseHeaders{Link: link}}, nil
}

// GetProfileSession returns one of the caller's sessions as a list item.
func (s *Server) GetProfileSession(ctx context.Context, req api.GetProfileSessionRequestObject) (api.GetProfileSessionResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	v, err := svc.Get(ctx, uid, req.Id)
	if err != nil {
		return nil, err
	}
	return api.GetProfileSession200JSONResponse(apiSessionItem(v)), nil
}
