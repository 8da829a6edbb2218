/** The parts of the Web Speech API we use (it is not in TypeScript's DOM library yet). */
export interface SpeechRecognitionAlternativeLike {
  transcript: string;
}
export interface SpeechRecognitionResultLike {
  readonly isFinal: boolean;
  readonly length: number;
  [index: number]: SpeechRecognitionAlternativeLike;
}
export interface SpeechRecognitionEventLike {
  readonly resultIndex: number;
  readonly results: { readonly length: number; [index: number]: SpeechRecognitionResultLike };
}
export interface SpeechRecognitionLike {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: SpeechRecognitionEventLike) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
export type SpeechRecognitionConstructor = new () => SpeechRecognitionLike;

/** The browser's speech recognition, or null (Firefox, for one, has none). */
export function speechRecognition(): SpeechRecognitionConstructor | null {
  const w = window as unknown as {
    SpeechRecognition?: SpeechRecognitionConstructor;
    webkitSpeechRecognition?: SpeechRecognitionConstructor;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/** Spec §4: language en-US, continuous, with interim results. */
export const SPEECH_LANG = 'en-US';
/** Spec §9: the final transcript is sent 2 s after speech stops. */
export const AUTO_SEND_MS = 2000;

export const SPEECH_FAILED = 'Speech recognition failed. Please try again.';
export const SPEECH_UNSUPPORTED =
  'Speech recognition is not supported in your browser or voice mode is not enabled.';
export const VOICE_SEND_FAILED = 'Failed to send voice message';
/** Prefixes of spec §4 for voice messages and spoken replies. */
export const MIC_PREFIX = '🎤 ';
export const SPEAKER_PREFIX = '🔊 ';
