package voice

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
)

// espeakVoice maps each API voice to a distinct espeak-ng voice and pitch.
var espeakVoice = map[string]struct {
	name  string
	pitch int
}{
	"alloy":   {"en-us+f2", 50},
	"ash":     {"en-us+m3", 40},
	"coral":   {"en-gb+f3", 60},
	"echo":    {"en-gb+m1", 45},
	"fable":   {"en-gb-x-rp+m4", 55},
	"onyx":    {"en-us+m7", 30},
	"nova":    {"en-us+f4", 65},
	"sage":    {"en-gb-scotland+f1", 50},
	"shimmer": {"en-us+f5", 72},
}

type espeakSpeaker struct {
	espeak, lame string
}

func newEspeak() (*espeakSpeaker, error) {
	e, err := exec.LookPath("espeak-ng")
	if err != nil {
		return nil, fmt.Errorf("espeak-ng is not installed")
	}
	l, err := exec.LookPath("lame")
	if err != nil {
		return nil, fmt.Errorf("lame is not installed")
	}
	return &espeakSpeaker{espeak: e, lame: l}, nil
}

func (s *espeakSpeaker) Name() string { return "espeak-ng" }

// Speak synthesises WAV with espeak-ng and encodes it to MP3 with lame. The text goes in on
// stdin, never as an argument.
func (s *espeakSpeaker) Speak(ctx context.Context, text, voice string) ([]byte, error) {
	text = CleanForSpeech(text)
	if text == "" {
		return nil, ErrNoSpeech
	}
	v, ok := espeakVoice[voice]
	if !ok {
		v = espeakVoice[Default]
	}
	synth := exec.CommandContext(ctx, s.espeak, "--stdout", "-v", v.name, "-p", strconv.Itoa(v.pitch), "-s", "165") // #nosec G204 -- espeak-ng found at start-up; the voice name and pitch come from a fixed table, the text goes to stdin, no shell
	synth.Stdin = bytes.NewBufferString(text)
	var wav, errBuf bytes.Buffer
	synth.Stdout, synth.Stderr = &wav, &errBuf
	if err := synth.Run(); err != nil {
		return nil, fmt.Errorf("espeak-ng: %w: %s", err, errBuf.String())
	}
	enc := exec.CommandContext(ctx, s.lame, "--quiet", "-b", "64", "-", "-") // #nosec G204 -- lame found at start-up, fixed arguments; the text goes to stdin, no shell
	enc.Stdin = &wav
	var mp3 bytes.Buffer
	errBuf.Reset()
	enc.Stdout, enc.Stderr = &mp3, &errBuf
	if err := enc.Run(); err != nil {
		return nil, fmt.Errorf("lame: %w: %s", err, errBuf.String())
	}
	return mp3.Bytes(), nil
}
