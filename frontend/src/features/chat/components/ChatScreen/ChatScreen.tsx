import { Alert, Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useGetClientConfig } from '../../../../api/gen/public/public';
import { useAuth } from '../../../../auth/AuthContext';
import { VoiceControls } from '../../../voice/VoiceControls';
import { useVoiceChat } from '../../../voice/useVoiceChat';
import { PageLoader } from '../../../../components/PageLoader/PageLoader';
import { useChatConversation } from '../../hooks/useChatConversation';
import { Composer } from '../Composer/Composer';
import { MessageList } from '../MessageList/MessageList';
import { ThinkingIndicator } from '../ThinkingIndicator/ThinkingIndicator';
import classes from './ChatScreen.module.css';

interface ChatScreenProps {
  initialSessionId?: string;
  onSessionCreated: (sessionId: string) => void;
  onEnded: () => void;
}

/** The chat of spec §2: title pill, messages, composer, token counter. */
export function ChatScreen({ initialSessionId, onSessionCreated, onEnded }: ChatScreenProps) {
  const chat = useChatConversation({ initialSessionId, onSessionCreated, onEnded });
  const config = useGetClientConfig({ query: { staleTime: Infinity, retry: false } });
  const { user } = useAuth();
  // Any role other than USER may talk (spec §6); an unknown role counts as USER.
  const privileged = Boolean(user && user.role !== 'USER');
  const voice = useVoiceChat({ sendVoice: chat.send, serverTranscription: Boolean(config.data?.transcription) });

  if (chat.loading) return <PageLoader label="Loading session..." />;

  return (
    <div className={classes.screen}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Text component="h1" className={classes.pill} m={0} fz="md">
            {chat.title}
          </Text>
          {config.data?.offlineCompanion ? (
            <Badge variant="light" color="sage" tt="none" title="Replies come from Percolate's built-in offline companion, not a language model.">
              Offline companion
            </Badge>
          ) : null}
        </Group>
        {chat.active && chat.sessionId ? (
          <Button variant="default" onClick={chat.endSession} loading={chat.ending}>
            End Session
          </Button>
        ) : null}
      </Group>

      {chat.loadError ? (
        <Alert color="clay" role="alert">
          {chat.loadError}
        </Alert>
      ) : null}

      <MessageList
        messages={chat.messages}
        onRevealed={chat.markRevealed}
        footer={chat.sending && !chat.messages.some((m) => m.streaming) ? <ThinkingIndicator /> : null}
      />

      {chat.error ? (
        <Alert color="clay" role="alert" py="xs">
          {chat.error}
        </Alert>
      ) : null}

      {voice.error ? (
        <Alert color="clay" role="alert" py="xs">
          {voice.error}
        </Alert>
      ) : null}

      <Composer
        onSend={(text) => void chat.send(text)}
        disabled={chat.readOnly}
        busy={chat.sending}
        voiceControls={
          <VoiceControls
            privileged={privileged}
            voiceMode={voice.voiceMode}
            onVoiceModeChange={voice.setVoiceMode}
            voice={voice.voice}
            onVoiceChange={voice.setVoice}
            listening={voice.listening}
            interim={voice.interim}
            onMic={voice.toggleMic}
            playing={voice.playing}
            onStopPlayback={voice.stopPlayback}
            disabled={chat.readOnly}
          />
        }
      />

      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          Need support right now?{' '}
          <Anchor component={Link} to="/safety" size="xs">
            Crisis resources
          </Anchor>
        </Text>
        <Text size="xs" c="dimmed" aria-label="Tokens used">
          {chat.tokensUsed} / {chat.tokenLimit}
        </Text>
      </Group>
    </div>
  );
}
