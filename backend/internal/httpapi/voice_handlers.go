package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/voice"
	"github.com/percolate/percolate/gen/api"
)

func (s *Server) voiceUser(ctx context.Context) (*voice.Service, Caller, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, Caller{}, err
	}
	return s.deps.Voice, c, nil
}

// SendVoiceMessage sends a voice transcript; the reply carries base64 MP3 when the server speaks.
func (s *Server) SendVoiceMessage(ctx context.Context, req api.SendVoiceMessageRequestObject) (api.SendVoiceMessageResponseObject, error) {
	v, c, err := s.voiceUser(ctx)
	if err != nil {
		return nil, err
	}
	in := chat.SendInput{SessionID: req.Body.SessionId, Message: req.Body.Message}
	name := voice.Default
	if req.Body.Voice != nil {
		name = string(*req.Body.Voice)
	}
	res, audio, err := v.Send(ctx, c.UserID, in, name)
	if err != nil {
		return nil, err
	}
	r := apiSendResult(res)
	out := api.SendVoiceMessage200JSONResponse{
		Success: r.Success, SessionId: r.SessionId, Title: r.Title, AiResponse: r.AiResponse,
		SessionTokensUsed: r.SessionTokensUsed, SessionTokenLimit: r.SessionTokenLimit,
		SessionEnded: r.SessionEnded, EndReason: r.EndReason, Error: r.Error, ReplyStatus: r.ReplyStatus,
	}
	if audio != nil {
		b64 := base64.StdEncoding.EncodeToString(audio)
		out.AudioData = &b64
	}
	return out, nil
}

// TranscribeAudio transcribes a recorded clip (multipart field "audio", at most 5 MB).
func (s *Server) TranscribeAudio(ctx context.Context, req api.TranscribeAudioRequestObject) (api.TranscribeAudioResponseObject, error) {
	v, c, err := s.voiceUser(ctx)
	if err != nil {
		return nil, err
	}
	for {
		part, err := req.Body.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, apperr.Invalid("audio", "Please attach the recording.")
		}
		if err != nil {
			return nil, apperr.Invalid("audio", "The upload could not be read.")
		}
		if part.FormName() != "audio" {
			continue
		}
		clip, err := io.ReadAll(io.LimitReader(part, voice.MaxAudioBytes+1))
		if err != nil {
			return nil, fmt.Errorf("read audio: %w", err)
		}
		if len(clip) > voice.MaxAudioBytes {
			return api.TranscribeAudio413JSONResponse{PayloadTooLargeJSONResponse: api.PayloadTooLargeJSONResponse{
				Code: "PAYLOAD_TOO_LARGE", Error: "Recordings can be at most 5 MB (about a minute).", Message: "Recordings can be at most 5 MB (about a minute).",
			}}, nil
		}
		name := part.FileName()
		if name == "" {
			name = "recording.webm"
		}
		text, err := v.Transcribe(ctx, c.UserID, bytes.NewReader(clip), name)
		if err != nil {
			return nil, err
		}
		return api.TranscribeAudio200JSONResponse{Text: text}, nil
	}
}
