import { useCallback, useEffect, useRef, useState } from 'react';
import { transcribeAudio } from '../../api/gen/chat/chat';
import { ApiError } from '../../api/mutator';

/** Recordings stop by themselves after a minute (the server takes up to 60 s / 5 MB). */
export const MAX_RECORDING_MS = 60_000;
export const NEEDS_SPEECH_BROWSER = 'Voice input on this server needs Chrome, Edge or Safari.';
export const TRANSCRIPTION_FAILED = "We couldn't make out that recording. Please try again.";

/** Whether this browser can record audio at all. */
export function canRecord(): boolean {
  return typeof window !== 'undefined' && 'MediaRecorder' in window && Boolean(navigator.mediaDevices?.getUserMedia);
}

/**
 * The fallback for browsers without speech recognition (Firefox): record with MediaRecorder,
 * send the clip to POST /api/chat/transcribe, and hand the text over like a final transcript.
 */
export function useRecorder({ onTranscript }: { onTranscript: (text: string) => void }) {
  const [recording, setRecording] = useState(false);
  const [transcribing, setTranscribing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onTranscriptRef = useRef(onTranscript);
  useEffect(() => {
    onTranscriptRef.current = onTranscript;
  }, [onTranscript]);

  const stop = useCallback(() => {
    clearTimeout(timer.current);
    if (recorder.current && recorder.current.state !== 'inactive') recorder.current.stop();
  }, []);

  const start = useCallback(async () => {
    setError(null);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setError('Microphone access was refused. Allow it in your browser to talk.');
      return;
    }
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(stream);
    rec.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    rec.onstop = () => {
      stream.getTracks().forEach((t) => t.stop());
      recorder.current = null;
      setRecording(false);
      const clip = new Blob(chunks, { type: rec.mimeType || 'audio/webm' });
      if (clip.size === 0) return;
      setTranscribing(true);
      transcribeAudio({ audio: clip })
        .then(({ text }) => {
          if (text.trim()) onTranscriptRef.current(text.trim());
        })
        .catch((err: unknown) => setError((err instanceof ApiError && err.serverMessage) || TRANSCRIPTION_FAILED))
        .finally(() => setTranscribing(false));
    };
    recorder.current = rec;
    rec.start();
    setRecording(true);
    timer.current = setTimeout(stop, MAX_RECORDING_MS);
  }, [stop]);

  useEffect(() => () => {
    clearTimeout(timer.current);
    if (recorder.current && recorder.current.state !== 'inactive') recorder.current.stop();
  }, []);

  return { recording, transcribing, error, start, stop };
}
