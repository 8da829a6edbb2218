import { ActionIcon, Group, NativeSelect, Switch, Text, Tooltip } from '@mantine/core';
import { IconLock, IconMicrophone, IconPlayerStopFilled, IconVolumeOff } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { Voice } from '../../api/gen/model';

interface Props {
  /** Any role other than USER may use voice (spec §6). */
  privileged: boolean;
  voiceMode: boolean;
  onVoiceModeChange: (on: boolean) => void;
  voice: Voice;
  onVoiceChange: (voice: Voice) => void;
  listening: boolean;
  interim: string;
  onMic: () => void;
  playing: boolean;
  onStopPlayback: () => void;
  disabled?: boolean;
}

const VOICES = Object.values(Voice);

/**
 * The voice-mode toggle and, in voice mode for paid roles, the microphone and the voice
 * selector. A free user who reaches for the toggle is taken to the pricing page.
 */
export function VoiceControls(props: Props) {
  const navigate = useNavigate();
  const { privileged, voiceMode, listening } = props;

  const toggle = (on: boolean) => {
    if (!privileged) {
      void navigate('/about', { state: { voiceLocked: true } });
      return;
    }
    props.onVoiceModeChange(on);
  };

  return (
    <Group gap="sm" wrap="wrap">
      <Switch
        label={
          <Group gap={4} component="span">
            Voice mode
            {!privileged && (
              <Tooltip label="Voice is part of the Basic and Premium plans">
                <IconLock size={16} aria-label="Voice locked" data-testid="voice-locked" />
              </Tooltip>
            )}
          </Group>
        }
        checked={privileged && voiceMode}
        onChange={(e) => toggle(e.currentTarget.checked)}
        disabled={props.disabled}
      />
      {privileged && voiceMode && (
        <>
          <Tooltip label={listening ? 'Stop recording' : 'Start recording'}>
            <ActionIcon
              size="lg"
              radius="xl"
              variant={listening ? 'filled' : 'light'}
              color={listening ? 'clay' : undefined}
              aria-label={listening ? 'Stop recording' : 'Start recording'}
              aria-pressed={listening}
              onClick={props.onMic}
              disabled={props.disabled}
            >
              {listening ? <IconPlayerStopFilled size={18} /> : <IconMicrophone size={18} />}
            </ActionIcon>
          </Tooltip>
          <NativeSelect
            aria-label="Voice"
            size="xs"
            data={VOICES}
            value={props.voice}
            onChange={(e) => props.onVoiceChange(e.currentTarget.value as Voice)}
          />
          {props.playing && (
            <ActionIcon variant="subtle" aria-label="Stop playback" onClick={props.onStopPlayback}>
              <IconVolumeOff size={18} />
            </ActionIcon>
          )}
          {listening && (
            <Text size="sm" c="dimmed" aria-live="polite">
              Listening… {props.interim}
            </Text>
          )}
        </>
      )}
    </Group>
  );
}
