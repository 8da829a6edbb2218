import { useCallback, useState } from 'react';
import type { Voice, VoiceResponse } from '../../api/gen/model';
import { speakInBrowser, useAudioPlayer } from './audio';
import { plainText } from '../chat/components/SafeMarkdown/plainText';
import { SPEECH_UNSUPPORTED } from './speech';
import { canRecord, NEEDS_SPEECH_BROWSER, useRecorder } from './useRecorder';
import { useSpeechRecognition } from './useSpeechRecognition';

interface Options {
  /** Sends a transcript through the voice endpoint and returns the reply. */
  sendVoice: (text: string, voice: Voice) => Promise<VoiceResponse | undefined>;
  /** The server can transcribe recordings (for browsers without speech recognition). */
  serverTranscription: boolean;
}

/**
 * Voice mode for the chat screen: recognition that sends the final transcript 2 s after
 * speech stops, and the spoken reply — the server's MP3 when it sent one, else the browser's
 * own voice.
 */
export function useVoiceChat({ sendVoice, serverTranscription }: Options) {
  const [voiceMode, setVoiceMode] = useState(false);
  const [voice, setVoice] = useState<Voice>('alloy');
  const player = useAudioPlayer();
  const [modeError, setModeError] = useState<string | null>(null);

  const onFinal = useCallback(
    async (transcript: string) => {
      const reply = await sendVoice(transcript, voice);
      if (!reply?.success) return;
      if (reply.audioData) void player.play(reply.audioData);
      // The reply is markdown on screen; speech reads its plain words.
      else speakInBrowser(plainText(reply.aiResponse));
    },
    [sendVoice, voice, player],
  );

  const speech = useSpeechRecognition({ enabled: voiceMode, onFinal: (t) => void onFinal(t) });
  const recorder = useRecorder({ onTranscript: (t) => void onFinal(t) });
  // Without speech recognition (Firefox), record and let the server transcribe, when it can.
  const useRecording = !speech.supported && serverTranscription && canRecord();

  const toggleMic = useCallback(() => {
    if (!voiceMode) {
      setModeError(SPEECH_UNSUPPORTED);
      return;
    }
    setModeError(null);
    if (useRecording) {
      if (recorder.recording) recorder.stop();
      else void recorder.start();
      return;
    }
    if (!speech.supported) {
      setModeError(`${SPEECH_UNSUPPORTED} ${NEEDS_SPEECH_BROWSER}`);
      return;
    }
    if (speech.listening) speech.stop();
    else speech.start();
  }, [voiceMode, speech, recorder, useRecording]);

  return {
    voiceMode,
    setVoiceMode: (on: boolean) => {
      if (!on && speech.listening) speech.stop();
      setVoiceMode(on);
    },
    voice,
    setVoice,
    listening: speech.listening || recorder.recording,
    interim: recorder.transcribing ? 'Transcribing…' : speech.interim,
    error: modeError ?? speech.error ?? recorder.error,
    toggleMic,
    playing: player.playing,
    stopPlayback: player.stop,
  };
}
