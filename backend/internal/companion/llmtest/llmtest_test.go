package llmtest_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/percolate/percolate/backend/internal/companion/llmtest"
)

func chatRequest(stream, includeUsage bool) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{
		Model: "gpt-test",
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: "You are a warm companion."},
			{Role: openai.ChatMessageRoleUser, Content: "I had a long day"},
		},
		Stream: stream,
	}
	if includeUsage {
		req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	return req
}

func TestNonStreamingCompletionWithUsage(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Script{Chunks: []string{"That sounds ", "tiring."}, PromptTokens: 21, CompletionTokens: 4})
	client := openai.NewClientWithConfig(srv.ClientConfig())

	resp, err := client.CreateChatCompletion(context.Background(), chatRequest(false, false))
	if err != nil {
		t.Fatalf("CreateChatCompletion: %v", err)
	}
	if len(resp.Choices) != 1 || resp.Choices[0].Message.Content != "That sounds tiring." {
		t.Fatalf("choices = %+v", resp.Choices)
	}
	if resp.Choices[0].FinishReason != openai.FinishReasonStop {
		t.Errorf("finish reason = %q", resp.Choices[0].FinishReason)
	}
	if resp.Usage.PromptTokens != 21 || resp.Usage.CompletionTokens != 4 || resp.Usage.TotalTokens != 25 {
		t.Errorf("usage = %+v", resp.Usage)
	}
	if resp.Model != "gpt-test" {
		t.Errorf("model = %q", resp.Model)
	}

	reqs := srv.Requests()
	if len(reqs) != 1 || srv.RequestCount() != 1 {
		t.Fatalf("recorded %d requests", len(reqs))
	}
	if got := reqs[0].Messages[1].Content; got != "I had a long day" {
		t.Errorf("recorded user message = %q", got)
	}
	if reqs[0].Messages[0].Role != openai.ChatMessageRoleSystem {
		t.Errorf("recorded first role = %q", reqs[0].Messages[0].Role)
	}
}

func TestDerivedUsageAndDefaultScript(t *testing.T) {
	srv := llmtest.New(t)
	client := openai.NewClientWithConfig(srv.ClientConfig())
	resp, err := client.CreateChatCompletion(context.Background(), chatRequest(false, false))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; got != "Hello from llmtest." {
		t.Errorf("default content = %q", got)
	}
	// 5 words of system prompt + 5 of user message; 4 default chunks.
	if resp.Usage.PromptTokens != 10 || resp.Usage.CompletionTokens != 4 {
		t.Errorf("derived usage = %+v", resp.Usage)
	}
}

func TestQueueThenDefault(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Script{Chunks: []string{"one"}}, llmtest.Script{Chunks: []string{"two"}})
	srv.SetDefault(llmtest.Script{Chunks: []string{"default"}})
	client := openai.NewClientWithConfig(srv.ClientConfig())
	for _, want := range []string{"one", "two", "default", "default"} {
		resp, err := client.CreateChatCompletion(context.Background(), chatRequest(false, false))
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.Choices[0].Message.Content; got != want {
			t.Errorf("content = %q, want %q", got, want)
		}
	}
	if n := srv.RequestCount(); n != 4 {
		t.Errorf("RequestCount = %d, want 4", n)
	}
}

// collect reads a stream to its end and returns the content deltas and the
// usage, if any was sent.
func collect(t *testing.T, stream *openai.ChatCompletionStream) ([]string, *openai.Usage, openai.FinishReason) {
	t.Helper()
	var deltas []string
	var usage *openai.Usage
	var finish openai.FinishReason
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return deltas, usage, finish
		}
		if err != nil {
			t.Fatalf("Recv: %v", err)
		}
		if chunk.Usage != nil {
			if usage != nil {
				t.Error("usage sent twice")
			}
			usage = chunk.Usage
			if len(chunk.Choices) != 0 {
				t.Errorf("usage chunk has choices: %+v", chunk.Choices)
			}
			continue
		}
		if usage != nil {
			t.Error("a chunk came after the usage chunk")
		}
		for _, c := range chunk.Choices {
			if c.Delta.Content != "" {
				deltas = append(deltas, c.Delta.Content)
			}
			if c.FinishReason != "" {
				finish = c.FinishReason
			}
		}
	}
}

func TestStreamYieldsChunksInOrderThenUsage(t *testing.T) {
	srv := llmtest.New(t)
	chunks := []string{"It ", "sounds ", "like ", "a lot."}
	srv.Enqueue(llmtest.Script{Chunks: chunks, PromptTokens: 30, CompletionTokens: 7})
	client := openai.NewClientWithConfig(srv.ClientConfig())

	stream, err := client.CreateChatCompletionStream(context.Background(), chatRequest(true, true))
	if err != nil {
		t.Fatalf("CreateChatCompletionStream: %v", err)
	}
	defer stream.Close()
	deltas, usage, finish := collect(t, stream)
	if strings.Join(deltas, "|") != strings.Join(chunks, "|") {
		t.Errorf("deltas = %q, want %q", deltas, chunks)
	}
	if finish != openai.FinishReasonStop {
		t.Errorf("finish reason = %q", finish)
	}
	if usage == nil || usage.PromptTokens != 30 || usage.CompletionTokens != 7 || usage.TotalTokens != 37 {
		t.Errorf("usage = %+v", usage)
	}
	if !srv.Requests()[0].Stream {
		t.Error("recorded request is not marked as streaming")
	}
}

func TestStreamWithoutIncludeUsageHasNoUsage(t *testing.T) {
	srv := llmtest.New(t)
	client := openai.NewClientWithConfig(srv.ClientConfig())
	stream, err := client.CreateChatCompletionStream(context.Background(), chatRequest(true, false))
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	deltas, usage, _ := collect(t, stream)
	if strings.Join(deltas, "") != "Hello from llmtest." {
		t.Errorf("deltas = %q", deltas)
	}
	if usage != nil {
		t.Errorf("usage sent without include_usage: %+v", usage)
	}
}

func TestStreamChunksArriveOneByOne(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Script{Chunks: []string{"a", "b", "c"}, Delay: 40 * time.Millisecond})
	client := openai.NewClientWithConfig(srv.ClientConfig())
	start := time.Now()
	stream, err := client.CreateChatCompletionStream(context.Background(), chatRequest(true, false))
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var arrivals []time.Duration
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			arrivals = append(arrivals, time.Since(start))
		}
	}
	if len(arrivals) != 3 {
		t.Fatalf("got %d content chunks", len(arrivals))
	}
	// Each chunk is flushed on its own, so the first arrives well before the
	// last (which waits for three delays).
	if arrivals[2]-arrivals[0] < 60*time.Millisecond {
		t.Errorf("chunks were not streamed incrementally: arrivals %v", arrivals)
	}
}

func TestAcceptsBaseURLWithoutV1(t *testing.T) {
	srv := llmtest.New(t)
	cfg := srv.ClientConfig()
	cfg.BaseURL = strings.TrimSuffix(srv.URL(), "/v1")
	client := openai.NewClientWithConfig(cfg)
	if _, err := client.CreateChatCompletion(context.Background(), chatRequest(false, false)); err != nil {
		t.Fatalf("without /v1: %v", err)
	}
}

func TestFailReturnsAPIError(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := llmtest.New(t)
		srv.Enqueue(llmtest.Script{Fail: http.StatusTooManyRequests})
		client := openai.NewClientWithConfig(srv.ClientConfig())
		var err error
		if stream {
			var s *openai.ChatCompletionStream
			s, err = client.CreateChatCompletionStream(context.Background(), chatRequest(true, true))
			if s != nil {
				s.Close()
			}
		} else {
			_, err = client.CreateChatCompletion(context.Background(), chatRequest(false, false))
		}
		var apiErr *openai.APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("stream=%v: error = %T %v, want *openai.APIError", stream, err, err)
		}
		if apiErr.HTTPStatusCode != http.StatusTooManyRequests {
			t.Errorf("stream=%v: status = %d, want 429", stream, apiErr.HTTPStatusCode)
		}
	}
}

func TestFailWithCustomBody(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(
		llmtest.Script{Fail: http.StatusBadRequest, FailBody: `{"error":{"message":"context_length_exceeded","type":"invalid_request_error","code":"context_length_exceeded"}}`},
		llmtest.Script{Fail: http.StatusBadGateway, FailBody: "<html>bad gateway</html>"},
	)
	client := openai.NewClientWithConfig(srv.ClientConfig())
	_, err := client.CreateChatCompletion(context.Background(), chatRequest(false, false))
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "context_length_exceeded" || apiErr.HTTPStatusCode != 400 {
		t.Errorf("error = %#v", err)
	}
	_, err = client.CreateChatCompletion(context.Background(), chatRequest(false, false))
	var reqErr *openai.RequestError
	if !errors.As(err, &reqErr) || reqErr.HTTPStatusCode != http.StatusBadGateway {
		t.Errorf("error = %T %v, want *openai.RequestError with 502", err, err)
	}
}

func TestStallAfterTimesOutAfterFirstChunks(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Script{Chunks: []string{"first ", "second ", "never"}, StallAfter: 2})
	client := openai.NewClientWithConfig(srv.ClientConfig())

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	stream, err := client.CreateChatCompletionStream(ctx, chatRequest(true, true))
	if err != nil {
		t.Fatalf("CreateChatCompletionStream: %v", err)
	}
	defer stream.Close()
	var got []string
	for {
		chunk, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				t.Fatal("stream ended normally, want a timeout")
			}
			if ctx.Err() == nil {
				t.Fatalf("Recv failed before the deadline: %v", err)
			}
			break
		}
		for _, c := range chunk.Choices {
			got = append(got, c.Delta.Content)
		}
	}
	if strings.Join(got, "") != "first second " {
		t.Errorf("received %q before the stall, want the first two chunks", got)
	}
}

func TestStallImmediatelyNonStreaming(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Script{StallAfter: llmtest.StallImmediately})
	client := openai.NewClientWithConfig(srv.ClientConfig())
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := client.CreateChatCompletion(ctx, chatRequest(false, false))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want context.DeadlineExceeded", err)
	}
}

// cleanups is a testing.TB whose cleanups the test runs itself, so that it can time them.
type cleanups struct {
	testing.TB
	fns []func()
}

func (c *cleanups) Cleanup(f func()) { c.fns = append(c.fns, f) }

func (c *cleanups) run() {
	for i := len(c.fns) - 1; i >= 0; i-- {
		c.fns[i]()
	}
}

func TestStalledHandlerDoesNotBlockCleanup(t *testing.T) {
	// A test that forgets to cancel its request must still finish: the server releases
	// stalled handlers when it shuts down, and the stalled client sees an error.
	tb := &cleanups{TB: t}
	srv := llmtest.New(tb)
	srv.Enqueue(llmtest.Script{StallAfter: llmtest.StallImmediately})
	client := openai.NewClientWithConfig(srv.ClientConfig())
	clientDone := make(chan error, 1)
	go func() {
		s, err := client.CreateChatCompletionStream(context.Background(), chatRequest(true, false))
		if err == nil {
			_, err = s.Recv()
			s.Close()
		}
		clientDone <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for srv.RequestCount() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if srv.RequestCount() == 0 {
		t.Fatal("the stalled request never reached the server")
	}

	cleaned := make(chan struct{})
	go func() { tb.run(); close(cleaned) }()
	select {
	case <-cleaned:
	case <-time.After(30 * time.Second):
		t.Fatal("the server's cleanup is still blocked by a stalled handler after 30 s")
	}
	select {
	case err := <-clientDone:
		if err == nil {
			t.Fatal("the stalled stream ended without an error when the server shut down")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the stalled client was not released by the server's shutdown")
	}
}

func TestGarbageMakesStreamFail(t *testing.T) {
	for _, chunks := range [][]string{{"ok ", "then garbage"}, {"only one"}, nil} {
		srv := llmtest.New(t)
		srv.Enqueue(llmtest.Script{Chunks: chunks, Garbage: true})
		client := openai.NewClientWithConfig(srv.ClientConfig())
		stream, err := client.CreateChatCompletionStream(context.Background(), chatRequest(true, true))
		if err != nil {
			t.Fatalf("CreateChatCompletionStream: %v", err)
		}
		var recvErr error
		for recvErr == nil {
			_, recvErr = stream.Recv()
		}
		stream.Close()
		if errors.Is(recvErr, io.EOF) {
			t.Errorf("chunks %q: stream ended cleanly, want a decoding error", chunks)
		}
	}
}

func TestGarbageMakesCompletionFail(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Script{Chunks: []string{"x"}, Garbage: true})
	client := openai.NewClientWithConfig(srv.ClientConfig())
	if _, err := client.CreateChatCompletion(context.Background(), chatRequest(false, false)); err == nil {
		t.Fatal("CreateChatCompletion succeeded on a malformed body")
	}
}

func TestRequireAPIKey(t *testing.T) {
	srv := llmtest.New(t)
	srv.RequireAPIKey("sk-right")
	cfg := srv.ClientConfig()
	if _, err := openai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), chatRequest(false, false)); err != nil {
		t.Fatalf("with the right key: %v", err)
	}
	wrong := openai.DefaultConfig("sk-wrong")
	wrong.BaseURL = srv.URL()
	_, err := openai.NewClientWithConfig(wrong).CreateChatCompletion(context.Background(), chatRequest(false, false))
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != http.StatusUnauthorized {
		t.Fatalf("with a wrong key: %v, want a 401 APIError", err)
	}
	if n := srv.RequestCount(); n != 1 {
		t.Errorf("RequestCount = %d, want 1 (unauthorised requests are not recorded)", n)
	}
}

func TestSpeech(t *testing.T) {
	srv := llmtest.New(t)
	srv.SetSpeechAudio([]byte("ID3fake"))
	client := openai.NewClientWithConfig(srv.ClientConfig())
	resp, err := client.CreateSpeech(context.Background(), openai.CreateSpeechRequest{
		Model: openai.TTSModel1, Input: "Take a slow breath.", Voice: openai.VoiceNova,
	})
	if err != nil {
		t.Fatalf("CreateSpeech: %v", err)
	}
	defer resp.Close()
	audio, err := io.ReadAll(resp)
	if err != nil {
		t.Fatal(err)
	}
	if string(audio) != "ID3fake" {
		t.Errorf("audio = %q", audio)
	}
	if ct := resp.Header().Get("Content-Type"); ct != "audio/mpeg" {
		t.Errorf("Content-Type = %q", ct)
	}
	reqs := srv.SpeechRequests()
	if len(reqs) != 1 || reqs[0].Input != "Take a slow breath." || reqs[0].Voice != openai.VoiceNova {
		t.Errorf("recorded speech requests = %+v", reqs)
	}

	srv.SetAudioFailure(http.StatusServiceUnavailable)
	_, err = client.CreateSpeech(context.Background(), openai.CreateSpeechRequest{Model: openai.TTSModel1, Input: "x", Voice: openai.VoiceNova})
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != http.StatusServiceUnavailable {
		t.Errorf("with audio failure: %v, want a 503 APIError", err)
	}
}

func TestTranscription(t *testing.T) {
	srv := llmtest.New(t)
	srv.SetTranscript("I feel calmer now")
	client := openai.NewClientWithConfig(srv.ClientConfig())
	for _, format := range []openai.AudioResponseFormat{"", openai.AudioResponseFormatText} {
		resp, err := client.CreateTranscription(context.Background(), openai.AudioRequest{
			Model:    openai.Whisper1,
			Reader:   bytes.NewReader([]byte("RIFFfakewav")),
			FilePath: "note.wav",
			Language: "en",
			Format:   format,
		})
		if err != nil {
			t.Fatalf("format %q: CreateTranscription: %v", format, err)
		}
		if resp.Text != "I feel calmer now" {
			t.Errorf("format %q: text = %q", format, resp.Text)
		}
	}
	trs := srv.Transcriptions()
	if len(trs) != 2 {
		t.Fatalf("recorded %d transcriptions", len(trs))
	}
	if trs[0].Model != openai.Whisper1 || trs[0].Language != "en" || trs[0].Filename != "note.wav" || string(trs[0].Audio) != "RIFFfakewav" {
		t.Errorf("recorded transcription = %+v", trs[0])
	}
}

// TestStartedServerTimesItsStreams: a server started outside a test (the bench's model)
// answers, notes when each streamed request arrived and its first content chunk left, and
// stops on Close.
func TestStartedServerTimesItsStreams(t *testing.T) {
	srv := llmtest.Start()
	client := openai.NewClientWithConfig(srv.ClientConfig())
	if _, n := srv.LastStream(); n != 0 {
		t.Fatalf("streams before any request: %d", n)
	}
	before := time.Now()
	stream, err := client.CreateChatCompletionStream(context.Background(), chatRequest(true, false))
	if err != nil {
		t.Fatalf("CreateChatCompletionStream: %v", err)
	}
	deltas, _, _ := collect(t, stream)
	stream.Close()
	if len(deltas) == 0 {
		t.Fatal("no deltas")
	}
	ts, n := srv.LastStream()
	if n != 1 || ts.Received.Before(before) || ts.FirstChunk.Before(ts.Received) || ts.FirstChunk.After(time.Now()) {
		t.Fatalf("LastStream = %+v, %d; want one stream received after %v, its first chunk after that", ts, n, before)
	}
	srv.Close()
	if _, err := http.Get(srv.URL() + "/models"); err == nil {
		t.Fatal("the server still answers after Close")
	}
}
