import { useCallback, useEffect, useRef, useState } from 'react';
import { AUTO_SEND_MS, SPEECH_FAILED, SPEECH_LANG, SPEECH_UNSUPPORTED, speechRecognition, type SpeechRecognitionLike } from './speech';

interface Options {
  /** Whether voice mode is on; recording refuses to start otherwise. */
  enabled: boolean;
  /** Receives the final transcript 2 s after speech stops; recording has stopped by then. */
  onFinal: (transcript: string) => void;
}

/**
 * Continuous speech recognition (en-US, interim results). Every result restarts a 2-second
 * silence timer; when it runs out, recording stops and the final transcript is handed over.
 */
export function useSpeechRecognition({ enabled, onFinal }: Options) {
  const [listening, setListening] = useState(false);
  const [interim, setInterim] = useState('');
  const [error, setError] = useState<string | null>(null);
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  const finalText = useRef('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onFinalRef = useRef(onFinal);
  useEffect(() => {
    onFinalRef.current = onFinal;
  }, [onFinal]);

  const finish = useCallback(() => {
    clearTimeout(timer.current);
    const rec = recognition.current;
    recognition.current = null;
    if (rec) {
      rec.onresult = null;
      rec.onend = null;
      rec.onerror = null;
      rec.stop();
    }
    setListening(false);
    setInterim('');
    const text = finalText.current.trim();
    finalText.current = '';
    return text;
  }, []);

  const stop = useCallback(() => {
    const text = finish();
    if (text) onFinalRef.current(text);
  }, [finish]);

  const start = useCallback(() => {
    const Recognition = speechRecognition();
    if (!Recognition || !enabled) {
      setError(SPEECH_UNSUPPORTED);
      return;
    }
    setError(null);
    finalText.current = '';
    const rec = new Recognition();
    rec.lang = SPEECH_LANG;
    rec.continuous = true;
    rec.interimResults = true;
    rec.onresult = (event) => {
      let pending = '';
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i];
        if (result.isFinal) finalText.current += `${result[0].transcript} `;
        else pending += result[0].transcript;
      }
      setInterim(pending);
      clearTimeout(timer.current);
      timer.current = setTimeout(stop, AUTO_SEND_MS);
    };
    rec.onerror = (event) => {
      // No speech is not a failure: the user simply said nothing yet.
      if (event.error !== 'no-speech') {
        finish();
        setError(SPEECH_FAILED);
      }
    };
    rec.onend = () => {
      // The browser ended recognition by itself (e.g. a long silence): send what we have.
      if (recognition.current === rec) stop();
    };
    recognition.current = rec;
    rec.start();
    setListening(true);
  }, [enabled, finish, stop]);

  useEffect(() => () => {
    clearTimeout(timer.current);
    recognition.current?.abort();
  }, []);

  return { listening, interim, error, start, stop, supported: speechRecognition() !== null };
}
