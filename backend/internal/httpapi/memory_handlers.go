package httpapi

import (
	"context"
	"io"

	"github.com/percolate/percolate/backend/internal/export"
	"github.com/percolate/percolate/backend/internal/memory"
	"github.com/percolate/percolate/gen/api"
)

func apiMemory(m memory.Memory) api.Memory {
	return api.Memory{Id: m.ID, Text: m.Text, SessionId: m.SessionID, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
}

// ListMemories returns what is remembered about the caller, newest first.
func (s *Server) ListMemories(ctx context.Context, _ api.ListMemoriesRequestObject) (api.ListMemoriesResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := s.deps.Memory.List(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	out := make(api.ListMemories200JSONResponse, 0, len(rows))
	for _, m := range rows {
		out = append(out, apiMemory(m))
	}
	return out, nil
}

// UpdateMemory changes the text of one of the caller's memories.
func (s *Server) UpdateMemory(ctx context.Context, req api.UpdateMemoryRequestObject) (api.UpdateMemoryResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	m, err := s.deps.Memory.Update(ctx, c.UserID, req.MemoryId, req.Body.Text)
	s.deps.Chat.ForgetUser(c.UserID)
	if err != nil {
		return nil, err
	}
	return api.UpdateMemory200JSONResponse(apiMemory(m)), nil
}

// DeleteMemory deletes one of the caller's memories.
func (s *Server) DeleteMemory(ctx context.Context, req api.DeleteMemoryRequestObject) (api.DeleteMemoryResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	err = s.deps.Memory.Delete(ctx, c.UserID, req.MemoryId)
	s.deps.Chat.ForgetUser(c.UserID)
	if err != nil {
		return nil, err
	}
	return api.DeleteMemory204Response{}, nil
}

// DeleteAllMemories forgets everything remembered about the caller.
func (s *Server) DeleteAllMemories(ctx context.Context, _ api.DeleteAllMemoriesRequestObject) (api.DeleteAllMemoriesResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	err = s.deps.Memory.DeleteAll(ctx, c.UserID)
	s.deps.Chat.ForgetUser(c.UserID)
	if err != nil {
		return nil, err
	}
	return api.DeleteAllMemories204Response{}, nil
}

// ExportData streams the caller's archive: it is written into a pipe while the response
// reads it, so nothing but the session being written is held in memory. A failure once the
// response has started is logged and breaks the connection (writeDomainError), so the
// client sees a failed download rather than a truncated zip.
func (s *Server) ExportData(ctx context.Context, _ api.ExportDataRequestObject) (api.ExportDataResponseObject, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.deps.Export.Begin(ctx, c.UserID); err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	go func() {
		err := s.deps.Export.Write(ctx, c.UserID, pw)
		if err != nil && ctx.Err() == nil {
			s.deps.Logger.Error("export failed part-way", "user_id", c.UserID, "error", err.Error())
		}
		_ = pw.CloseWithError(err)
	}()
	disposition := `attachment; filename="` + export.FileName + `"`
	return api.ExportData200ApplicationzipResponse{Body: pr, Headers: api.ExportData200ResponseHeaders{ContentDisposition: &disposition}}, nil
}
