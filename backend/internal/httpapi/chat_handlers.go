package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/gen/api"
)

// codeCompanionUnavailable is the code of the stream's error event when the companion
// could not reply (the user's message is stored).
const codeCompanionUnavailable = "COMPANION_UNAVAILABLE"

// chatUser returns the chat service and the caller's user id.
func (s *Server) chatUser(ctx context.Context) (*chat.Service, uuid.UUID, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, uuid.Nil, err
	}
	if s.deps.Chat == nil {
		return nil, uuid.Nil, apperr.ErrUnavailable
	}
	return s.deps.Chat, c.UserID, nil
}

func chatSendInput(body *api.SendMessageRequest) chat.SendInput {
	if body == nil {
		return chat.SendInput{}
	}
	return chat.SendInput{SessionID: body.SessionId, Message: body.Message}
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
	item := api.SessionListItem{
		Id: v.ID, Title: v.Title, Status: api.SessionStatus(v.Status), UpdatedAt: v.UpdatedAt,
		SessionSummary: v.Summary, SessionEmotions: apiEmotions(v.Emotions),
	}
	if v.LastMessage != "" {
		last := v.LastMessage
		item.LastMessage = &last
	}
	return item
}

// SendChatMessage sends a message and answers with the whole reply.
func (s *Server) SendChatMessage(ctx context.Context, req api.SendChatMessageRequestObject) (api.SendChatMessageResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	res, err := svc.Send(ctx, uid, chatSendInput(req.Body), nil)
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
	turn, err := svc.Begin(ctx, uid, chatSendInput(req.Body))
	if err != nil {
		return nil, err
	}
	return chatEventStream{ctx: ctx, turn: turn}, nil
}

// chatEventStream writes a turn's reply as server-sent events, flushing each one.
type chatEventStream struct {
	ctx  context.Context
	turn *chat.Turn
}

func (c chatEventStream) VisitStreamChatMessageResponse(w http.ResponseWriter) error {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(event string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return err
		}
		return rc.Flush()
	}
	if err := rc.Flush(); err != nil {
		return nil // the client is gone; nothing more to say
	}
	res := c.turn.Reply(c.ctx, func(text string) error {
		return send("delta", api.StreamDelta{Text: text})
	})
	if !res.Success {
		_ = send("error", api.StreamError{Code: codeCompanionUnavailable, Error: res.Error, Message: res.Error, SessionId: res.SessionID})
		return nil
	}
	_ = send("done", apiSendResult(res))
	return nil
}

// ListChatSessions lists the caller's sessions.
func (s *Server) ListChatSessions(ctx context.Context, _ api.ListChatSessionsRequestObject) (api.ListChatSessionsResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	list, err := svc.List(ctx, uid)
	if err != nil {
		return nil, err
	}
	out := make(api.ListChatSessions200JSONResponse, 0, len(list))
	for _, v := range list {
		out = append(out, apiSessionItem(v))
	}
	return out, nil
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
	out := api.GetChatSession200JSONResponse{
		SessionId: d.ID, Title: d.Title, Status: api.SessionStatus(d.Status), IsActive: d.Active,
		SessionTokensUsed: d.TokensUsed, SessionTokenLimit: d.TokenLimit, EndReason: d.EndReason,
		SessionSummary: d.Summary, Messages: make([]api.Message, 0, len(d.Messages)),
	}
	if d.Summary != nil || len(d.Emotions) > 0 {
		em := apiEmotions(d.Emotions)
		out.SessionEmotions = &em
	}
	for _, m := range d.Messages {
		out.Messages = append(out.Messages, api.Message{Id: m.ID, Content: m.Content, Role: api.ChatRole(m.Role), Timestamp: m.CreatedAt, TokenCount: m.TokenCount})
	}
	return out, nil
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
	v, err := svc.End(ctx, uid, req.Id)
	if err != nil {
		return nil, err
	}
	return api.EndChatSession200JSONResponse(apiSessionItem(v)), nil
}

// SearchProfileSessions searches the caller's sessions by title, last message and id.
func (s *Server) SearchProfileSessions(ctx context.Context, req api.SearchProfileSessionsRequestObject) (api.SearchProfileSessionsResponseObject, error) {
	svc, uid, err := s.chatUser(ctx)
	if err != nil {
		return nil, err
	}
	query := ""
	if req.Params.Query != nil {
		query = *req.Params.Query
	}
	list, err := svc.Search(ctx, uid, query)
	if err != nil {
		return nil, err
	}
	out := make(api.SearchProfileSessions200JSONResponse, 0, len(list))
	for _, v := range list {
		out = append(out, apiSessionItem(v))
	}
	return out, nil
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
