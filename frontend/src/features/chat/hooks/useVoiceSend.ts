import { useSendVoiceMessage } from '../../../api/gen/chat/chat';
import type { Voice, VoiceResponse } from '../../../api/gen/model';
import { ApiError } from '../../../api/mutator';
import { MIC_PREFIX, SPEAKER_PREFIX, VOICE_SEND_FAILED } from '../../voice/speech';
import type { ConversationTurn } from '../types';

/** The server's own words for a refused voice message (a limit, a plan), else spec §8's. */
function voiceErrorText(err: unknown): string {
  return (err instanceof ApiError && err.serverMessage) || VOICE_SEND_FAILED;
}

/**
 * Sends a spoken message through POST /api/chat/voice into the conversation's thread, shown
 * with 🎤 and its reply with 🔊 (spec §4), and returns the reply so the caller can play its
 * audio (undefined when nothing was sent or the send failed).
 */
export function useVoiceSend(turn: ConversationTurn) {
  // The sessions' cache follows the turn's reply (ConversationTurn.reply), as for a streamed one.
  const { mutateAsync: sendVoice } = useSendVoiceMessage();
  return async (text: string, voice: Voice): Promise<VoiceResponse | undefined> => {
    const message = text.trim();
    if (!turn.begin(message, MIC_PREFIX + message)) return undefined;
    turn.setSending(true);
    try {
      const response = await sendVoice({ data: { message, sessionId: turn.sessionId(), voice } });
      turn.reply(response, SPEAKER_PREFIX);
      return response;
    } catch (err) {
      turn.fail(voiceErrorText(err));
      return undefined;
    } finally {
      turn.setSending(false);
    }
  };
}
