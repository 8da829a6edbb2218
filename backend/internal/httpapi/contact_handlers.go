package httpapi

import (
	"context"

	"github.com/percolate/percolate/backend/internal/contact"
	"github.com/percolate/percolate/gen/api"
)

// msgContactReceived is what the sender reads after a message (or a honeypot catch, which
// must look the same) was accepted.
const msgContactReceived = "Thanks for reaching out! We'll get back to you soon."

// SendContactMessage accepts a message from the public contact form.
func (s *Server) SendContactMessage(ctx context.Context, req api.SendContactMessageRequestObject) (api.SendContactMessageResponseObject, error) {
	in := contact.Input{
		Name:     req.Body.Name,
		Email:    string(req.Body.Email),
		Message:  req.Body.Message,
		ClientIP: ClientIP(ctx),
	}
	if req.Body.Website != nil {
		in.Website = *req.Body.Website
	}
	if err := s.deps.Contact.Send(ctx, in); err != nil {
		return nil, err
	}
	return api.SendContactMessage202JSONResponse{Message: msgContactReceived}, nil
}
