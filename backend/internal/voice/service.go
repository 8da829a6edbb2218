package voice

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/google/uuid"

	"github.com/percolate/percolate/backend/internal/apperr"
	"github.com/percolate/percolate/backend/internal/chat"
	"github.com/percolate/percolate/backend/internal/entitlement"
	"github.com/percolate/percolate/backend/internal/store"
)

// MaxAudioBytes bounds recorded audio sent for transcription (about 60 s of compressed speech).
const MaxAudioBytes = 5 << 20

const usageKind = "voice"

// Service runs voice conversations on top of the chat service: the transcript is an ordinary
// message (same safety screening and session rules), the reply is also spoken.
type Service struct {
	chat        *chat.Service
	db          *store.Store
	speaker     Speaker     // nil: the browser speaks
	transcriber Transcriber // nil: only browsers with speech recognition can talk
	tiers       entitlement.Table
	logger      *slog.Logger
}

// NewService returns the voice service. tiers (each role's voice messages a day) may be nil
// for the product's defaults.
func NewService(c *chat.Service, db *store.Store, speaker Speaker, transcriber Transcriber, tiers entitlement.Table, logger *slog.Logger) *Service {
	if tiers == nil {
		tiers = entitlement.Default()
	}
	return &Service{chat: c, db: db, speaker: speaker, transcriber: transcriber, tiers: tiers, logger: logger}
}

// Speaks reports whether replies come with server-made audio.
func (s *Service) Speaks() bool { return s.speaker != nil }

// Transcribes reports whether recorded audio can be transcribed here.
func (s *Service) Transcribes() bool { return s.transcriber != nil }

// Send sends a voice transcript and returns the reply with its audio (nil when the browser
// should speak it, or when speech failed: the text reply is never lost for want of audio).
func (s *Service) Send(ctx context.Context, userID uuid.UUID, in chat.SendInput, voice string) (chat.SendResult, []byte, error) {
	if voice == "" {
		voice = Default
	}
	if !ValidVoice(voice) {
		return chat.SendResult{}, nil, apperr.Invalid("voice", "Choose one of the nine voices.")
	}
	limit, err := s.allowed(ctx, userID)
	if err != nil {
		return chat.SendResult{}, nil, err
	}
	// The voice quota is counted in the message's own transaction: a refused message uses
	// none of it, and a reply that fails gives it back with the message quota.
	in.Quotas = append(in.Quotas, chat.Quota{
		Kind: usageKind, Limit: limit,
		Refusal: fmt.Sprintf("You've reached today's limit of %d voice messages. It resets tomorrow; you can keep typing until then.", limit),
	})
	res, err := s.chat.Send(ctx, userID, in, nil)
	if err != nil {
		return chat.SendResult{}, nil, err
	}
	if !res.Success || s.speaker == nil || res.AIResponse == "" {
		return res, nil, nil
	}
	audio, err := s.speaker.Speak(ctx, res.AIResponse, voice)
	if err != nil {
		s.logger.Warn("speech failed; the browser will speak the reply", "provider", s.speaker.Name(), "error", err.Error())
		return res, nil, nil
	}
	return res, audio, nil
}

// Transcribe turns recorded audio into text for browsers without speech recognition.
func (s *Service) Transcribe(ctx context.Context, userID uuid.UUID, audio io.Reader, filename string) (string, error) {
	if _, err := s.allowed(ctx, userID); err != nil {
		return "", err
	}
	if s.transcriber == nil {
		return "", apperr.New(apperr.ErrUnavailable, "TRANSCRIPTION_UNAVAILABLE",
			"Voice input on this server needs Chrome, Edge or Safari.")
	}
	text, err := s.transcriber.Transcribe(ctx, io.LimitReader(audio, MaxAudioBytes), filename)
	if err != nil {
		s.logger.Warn("transcription failed", "error", err.Error())
		return "", apperr.New(apperr.ErrUnavailable, "TRANSCRIPTION_FAILED", "We couldn't make out that recording. Please try again.")
	}
	return text, nil
}

// allowed returns the caller's daily voice limit, or 403 for the free tier.
func (s *Service) allowed(ctx context.Context, userID uuid.UUID) (int, error) {
	u, err := s.db.Queries().GetUserByID(ctx, userID)
	if store.IsNotFound(err) {
		return 0, apperr.ErrUnauthorized
	}
	if err != nil {
		return 0, fmt.Errorf("load user: %w", err)
	}
	limit := s.tiers.For(u.Role).VoicePerDay
	if limit <= 0 {
		return 0, apperr.New(apperr.ErrForbidden, "VOICE_NOT_INCLUDED", "Voice conversations are part of the Basic and Premium plans. Upgrade on the pricing page to talk with Percolate.")
	}
	return limit, nil
}
