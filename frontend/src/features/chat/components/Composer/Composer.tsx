import { Button, Group, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';

interface ComposerProps {
  onSend: (text: string) => void;
  /** The session has ended (or could not be loaded): read-only. */
  disabled: boolean;
  /** A reply is on its way: the text can be written but not sent yet. */
  busy: boolean;
  /**
   * Controls placed before the Send button. The voice mode toggle, microphone
   * and voice selector (voice issue) mount here.
   */
  voiceControls?: ReactNode;
}

export const ENDED_PLACEHOLDER = 'This session has ended. You can read it, but no new messages can be sent.';

/** The message box: Enter sends, Shift+Enter adds a newline (spec §2, Chat). */
export function Composer({ onSend, disabled, busy, voiceControls }: ComposerProps) {
  const [text, setText] = useState('');

  const submit = () => {
    // An ended session refuses with its own message, so that goes through
    // whatever the text; otherwise an empty or whitespace-only message is not
    // sent (spec §5).
    if (busy) return;
    if (disabled) {
      onSend(text);
      return;
    }
    if (text.trim() === '') return;
    onSend(text.trim());
    setText('');
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <Textarea
          flex={1}
          autosize
          minRows={1}
          maxRows={6}
          aria-label="Message"
          placeholder={disabled ? ENDED_PLACEHOLDER : 'Share what is on your mind...'}
          disabled={disabled}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
        />
        {voiceControls}
        <Button type="submit" disabled={busy} rightSection={<IconSend size={16} aria-hidden />}>
          Send
        </Button>
      </Group>
    </form>
  );
}
