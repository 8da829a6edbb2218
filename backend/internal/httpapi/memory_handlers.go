package httpapi

import (
	"context"
	"io"

	"github.com/google/uuid"

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
	out := make(api.ListMemories200JSONResponse, len(rows))
	for i, m := range rows {
		out[i] = apiMemory(m)
	}
	return out, nil
}

// changeMemories runs change on the caller's memories, then has the chat service forget what
// it keeps of the caller, failed or not: the prompt carries the memories.
func (s *Server) changeMemories(ctx context.Context, change func(userID uuid.UUID) error) error {
	c, err := caller(ctx)
	if err != nil {
		return err
	}
	defer s.deps.Chat.ForgetUser(c.UserID)
	return change(c.UserID)
}

// UpdateMemory changes the text of one of the caller's memories.
func (s *Server) UpdateMemory(ctx context.Context, req api.UpdateMemoryRequestObject) (api.UpdateMemoryResponseObject, error) {
	var m memory.Memory
	err := s.changeMemories(ctx, func(uid uuid.UUID) (err error) {
		m, err = s.deps.Memory.Update(ctx, uid, req.MemoryId, req.Body.Text)
		return err
	})
	if err != nil {
		return nil, err
	}
	return api.UpdateMemory200JSONResponse(apiMemory(m)), nil
}

// DeleteMemory deletes one of the caller's memories.
func (s *Server) DeleteMemory(ctx context.Context, req api.DeleteMemoryRequestObject) (api.DeleteMemoryResponseObject, error) {
	if err := s.changeMemories(ctx, func(uid uuid.UUID) error { return s.deps.Memory.Delete(ctx, uid, req.MemoryId) }); err != nil {
		return nil, err
	}
	return api.DeleteMemory204Response{}, nil
}

// DeleteAllMemories forgets everything remembered about the caller.
func (s *Server) DeleteAllMemories(ctx context.Context, _ api.DeleteAllMemoriesRequestObject) (api.DeleteAllMemoriesResponseObject, error) {
	if err := s.changeMemories(ctx, func(uid uuid.UUID) error { return s.deps.Memory.DeleteAll(ctx, uid) }); err != nil {
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
