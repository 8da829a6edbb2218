import { ActionIcon, Group, NativeSelect, Switch, Text, Tooltip } from '@mantine/core';
import { IconLock, IconMicrophone, IconPlayerStopFilled, IconVolumeOff } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { Voice } from '../../api/gen/model';

interface Props {
  /** The tier includes voice (its entitlements say; spec §6). */
  privileged: boolean;
  voiceMode: boolean;
  onVoiceModeChange: (on: boolean) => void;
  voice: Voice;
  onVoiceChange: (voice: Voice) => void;
  listening: boolean;
  interim: string;
  playing: boolean;
  onStopPlayback: () => void;
  disabled?: boolean;
}

const VOICES = Object.values(Voice);

/**
 * The voice-mode switch and, in voice mode for tiers with voice, the voice selector
 * (the microphone sits in the composer, beside Send: see MicButton). A free
 * user who reaches for the switch is taken to the pricing page.
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
    <Group gap="sm" wrap="wrap" miw={0}>
      <Switch
        size="md"
        thumbIcon={<IconMicrophone size={12} stroke={2} aria-hidden />}
        label={
          <Group gap={4} component="span" wrap="nowrap">
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
          <NativeSelect
            aria-label="Voice"
            size="xs"
            data={VOICES}
            value={props.voice}
            onChange={(e) => props.onVoiceChange(e.currentTarget.value as Voice)}
          />
          {props.playing && (
            <ActionIcon variant="subtle" size="lg" aria-label="Stop playback" onClick={props.onStopPlayback}>
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

interface MicButtonProps {
  listening: boolean;
  onMic: () => void;
  disabled?: boolean;
}

/** The microphone, a full-height icon button beside Send in voice mode. */
export function MicButton({ listening, onMic, disabled }: MicButtonProps) {
  const label = listening ? 'Stop recording' : 'Start recording';
  return (
    <Tooltip label={label}>
      <ActionIcon
        size="input-md"
        variant={listening ? 'filled' : 'light'}
        color={listening ? 'clay' : undefined}
        aria-label={label}
        aria-pressed={listening}
        onClick={onMic}
        disabled={disabled}
      >
        {listening ? <IconPlayerStopFilled size={20} /> : <IconMicrophone size={20} />}
      </ActionIcon>
    </Tooltip>
  );
}
