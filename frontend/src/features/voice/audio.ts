import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Turns the voice reply's audioData into an audio/mpeg Blob, whether it came as base64, a
 * data URL or binary (spec §3).
 */
export function toAudioBlob(data: string | ArrayBuffer | Uint8Array | Blob): Blob {
  if (data instanceof Blob) return new Blob([data], { type: 'audio/mpeg' });
  if (typeof data !== 'string') return new Blob([data as BlobPart], { type: 'audio/mpeg' });
  const base64 = data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: 'audio/mpeg' });
}

/** Plays one reply at a time; playback can be stopped. */
export function useAudioPlayer() {
  const current = useRef<{ audio: HTMLAudioElement; url: string } | null>(null);
  const [playing, setPlaying] = useState(false);

  const stop = useCallback(() => {
    const c = current.current;
    current.current = null;
    if (c) {
      c.audio.pause();
      URL.revokeObjectURL(c.url);
    }
    setPlaying(false);
  }, []);

  const play = useCallback(
    async (data: string | ArrayBuffer | Uint8Array | Blob) => {
      stop();
      const url = URL.createObjectURL(toAudioBlob(data));
      const audio = new Audio(url);
      current.current = { audio, url };
      audio.onended = stop;
      setPlaying(true);
      try {
        await audio.play();
      } catch {
        stop(); // autoplay refused or undecodable: the text reply is on screen anyway
      }
    },
    [stop],
  );

  useEffect(() => stop, [stop]);
  return { play, stop, playing };
}

/** Speaks a reply with the browser's own voice when the server sent no audio. */
export function speakInBrowser(text: string): boolean {
  if (!('speechSynthesis' in window)) return false;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = 'en-US';
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(utterance);
  return true;
}
