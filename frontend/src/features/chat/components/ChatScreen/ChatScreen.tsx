import { ActionIcon, Alert, Anchor, Button, Group, Popover, Text } from '@mantine/core';
import { IconCloudOff, IconDoorExit } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useGetClientConfig } from '../../../../api/gen/public/public';
import { useEntitlements } from '../../../../auth/useEntitlements';
import { MicButton, VoiceControls } from '../../../voice/VoiceControls';
import { useVoiceChat } from '../../../voice/useVoiceChat';
import { PageLoader } from '../../../../components/PageLoader/PageLoader';
import { RECONNECTING, type Thread } from '../../hooks/chatState';
import { useChatConversation } from '../../hooks/useChatConversation';
import { useVoiceSend } from '../../hooks/useVoiceSend';
import { Composer } from '../Composer/Composer';
import { EndSessionDialog } from '../EndSessionDialog/EndSessionDialog';
import { EndedSummary } from '../EndedSummary/EndedSummary';
import { MessageList } from '../MessageList/MessageList';
import { PinnedSupport } from '../PinnedSupport/PinnedSupport';
import { ThinkingIndicator } from '../ThinkingIndicator/ThinkingIndicator';
import { TokenCounter } from '../TokenCounter/TokenCounter';
import { messagesLeft, messagesLeftText } from '../TokenCounter/messagesLeft';
import classes from './ChatScreen.module.css';

interface ChatScreenProps {
  initialSessionId?: string;
  /** A new chat opened from the dashboard's prompt of the day: the companion asks it. */
  prompt?: string;
  /** A new chat that continues an ended session's thread. */
  thread?: Thread;
  onSessionCreated: (sessionId: string) => void;
  onEnded: () => void;
}

const END_FAILED = 'Failed to end session';
const OFFLINE_NOTE = "Replies come from Percolate's built-in offline companion, not a language model.";

/** Offered when a session ends here, e.g. at its limit: a new session that picks up its thread (issue 36). A session opened later has EndedSummary's Continue. */
export const CONTINUE_THREAD = 'Continue in a new session';

/** The chat of spec §2: title pill, messages, composer, token counter. Laid out for a phone first. */
export function ChatScreen({ initialSessionId, prompt, thread, onSessionCreated, onEnded }: ChatScreenProps) {
  const chat = useChatConversation({ initialSessionId, prompt, thread, onSessionCreated, onEnded });
  const config = useGetClientConfig({ query: { staleTime: Infinity, retry: false } });
  // What the tier includes, from the server's entitlement table (spec §6); until it answers, nothing extra.
  const { entitlements, pending: entitlementsPending } = useEntitlements();
  const sendVoice = useVoiceSend(chat.turn);
  const voice = useVoiceChat({ sendVoice, serverTranscription: Boolean(config.data?.transcription) });
  // The closing moment: End Session asks first (one tap on a phone must not end a session).
  const [ending, setEnding] = useState(false);
  const [offlineNote, setOfflineNote] = useState(false);

  if (chat.loading) return <PageLoader label="Loading session..." />;

  const answered = chat.messages.filter((m) => m.role === 'user').length;
  const left = chat.active ? messagesLeft(chat.tokensUsed, chat.tokenLimit, answered) : null;

  return (
    <div className={classes.screen}>
      <div className={classes.header}>
        <Text component="h1" className={classes.pill} m={0} fz="md" title={chat.title}>
          {chat.title}
        </Text>
        {config.data?.offlineCompanion ? (
          // A toggletip rather than a tooltip: a tap opens it and it stays until dismissed, so it
          // can be read on a phone; Escape or a tap elsewhere closes it.
          <Popover width={240} position="bottom" withArrow shadow="md" opened={offlineNote} onChange={setOfflineNote}>
            <Popover.Target>
              <ActionIcon
                variant="subtle"
                color="sage"
                size="lg"
                className={classes.offline}
                aria-label="Offline companion"
                onClick={() => setOfflineNote((o) => !o)}
                onKeyDown={(event) => {
                  if (event.key === 'Escape') setOfflineNote(false);
                }}
              >
                <IconCloudOff size={18} stroke={1.7} aria-hidden />
              </ActionIcon>
            </Popover.Target>
            {/* Named by its button (aria-labelledby). */}
            <Popover.Dropdown>
              <Text size="sm">{OFFLINE_NOTE}</Text>
            </Popover.Dropdown>
          </Popover>
        ) : null}
        <span className={classes.spacer} />
        {chat.active && chat.sessionId ? (
          // Labelled in words at every width, not a bare door icon (issue 36).
          <Button
            variant="default"
            className={classes.end}
            leftSection={<IconDoorExit size={18} aria-hidden />}
            onClick={() => setEnding(true)}
            loading={chat.ending}
          >
            End Session
          </Button>
        ) : null}
      </div>

      <EndSessionDialog
        opened={ending && chat.active}
        sessionId={chat.sessionId ?? ''}
        ending={chat.ending}
        error={chat.error === END_FAILED ? chat.error : null}
        onCancel={() => setEnding(false)}
        onConfirm={(feeling) => chat.endSession(feeling)}
      />

      {chat.loadError ? (
        <Alert color="clay" role="alert">
          {chat.loadError}
        </Alert>
      ) : null}

      {chat.endedBefore ? (
        <EndedSummary showSummary={entitlements.summaries} summary={chat.summary} emotions={chat.emotions} />
      ) : null}

      <MessageList
        messages={chat.messages}
        live={chat.live}
        onRevealed={chat.markRevealed}
        retryId={chat.retryId}
        onRetry={chat.retry}
        footer={chat.sending && !chat.messages.some((m) => m.streaming) ? <ThinkingIndicator /> : null}
      />

      {left !== null ? (
        <Text size="sm" c="dimmed" role="status" data-testid="messages-left">
          {messagesLeftText(left)}
        </Text>
      ) : null}

      {chat.error ? (
        <Alert color="clay" role="alert" py="xs">
          {chat.error}
          {chat.reconnecting ? (
            <Text component="span" size="sm" role="status" display="block">
              {RECONNECTING}
            </Text>
          ) : null}
        </Alert>
      ) : null}

      {voice.error ? (
        <Alert color="clay" role="alert" py="xs">
          {voice.error}
        </Alert>
      ) : null}

      {chat.sessionId && !chat.active && !chat.loading && !chat.loadError && !chat.endedBefore ? (
        <Button component={Link} to="/chat" state={{ thread: { title: chat.title, sessionId: chat.sessionId } satisfies Thread }} variant="light" size="md">
          {CONTINUE_THREAD}
        </Button>
      ) : null}

      {chat.safetyPinned ? <PinnedSupport category={chat.safetyPinned.category} /> : null}

      <Composer
        onSend={(text) => void chat.send(text)}
        onStop={chat.stop}
        disabled={chat.readOnly}
        busy={chat.sending}
        streaming={chat.streaming}
        stopping={chat.stopping}
        showStarters={chat.empty && chat.active && !chat.sending}
        actions={
          entitlements.voice && voice.voiceMode ? (
            <MicButton listening={voice.listening} onMic={voice.toggleMic} disabled={chat.readOnly} />
          ) : null
        }
      />

      <div className={classes.toolbar}>
        <VoiceControls
          privileged={entitlements.voice}
          voiceMode={voice.voiceMode}
          onVoiceModeChange={voice.setVoiceMode}
          voice={voice.voice}
          onVoiceChange={voice.setVoice}
          listening={voice.listening}
          interim={voice.interim}
          playing={voice.playing}
          onStopPlayback={voice.stopPlayback}
          disabled={chat.readOnly || entitlementsPending}
        />
        <TokenCounter used={chat.tokensUsed} limit={chat.tokenLimit} />
      </div>

      <Group gap="xs">
        <Text size="xs" c="dimmed">
          Need support right now?{' '}
          <Anchor component={Link} to="/safety" size="xs">
            Crisis resources
          </Anchor>
        </Text>
      </Group>
    </div>
  );
}
