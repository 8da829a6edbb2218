import { ActionIcon, Button, Group, Textarea, Tooltip } from '@mantine/core';
import { IconPlayerStopFilled, IconSend } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import classes from './Composer.module.css';

import { STARTERS } from './starters';

interface ComposerProps {
  onSend: (text: string) => void;
  /** Stops the reply being written. */
  onStop?: () => void;
  /** The session has ended (or could not be loaded): read-only. */
  disabled: boolean;
  /** A reply is on its way: the text can be written but not sent yet. */
  busy: boolean;
  /** A reply is streaming: Send becomes Stop. */
  streaming?: boolean;
  stopping?: boolean;
  /** Nothing said yet: offer the starter chips. */
  showStarters?: boolean;
  /** Icon buttons placed before Send (the microphone in voice mode). */
  actions?: ReactNode;
}

/**
 * A browser that sizes a textarea to its text itself (CSS field-sizing: Composer.module.css) needs
 * no script for it. Mantine's autosize measures the text in a hidden copy of the box, which forces
 * the browser's style and layout on every render of the composer; the first was in the commit
 * that opens a chat, with its messages.
 */
const SIZED_BY_CSS = typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('field-sizing', 'content');

export const ENDED_PLACEHOLDER = 'This session has ended. You can read it, but no new messages can be sent.';

/**
 * The message box, spanning the width with its actions as full-height icon
 * buttons: Enter sends, Shift+Enter adds a newline (spec §2, Chat).
 */
export function Composer({ onSend, onStop, disabled, busy, streaming, stopping, showStarters, actions }: ComposerProps) {
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const stopMode = Boolean(streaming && onStop);
  // A chat opens with the focus in the message box, ready to type (issue 36); an ended one does not.
  const focusOnOpen = useRef(!disabled);
  useEffect(() => {
    if (focusOnOpen.current) box.current?.focus({ preventScroll: true });
  }, []);

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
      className={classes.composer}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {showStarters && !disabled ? (
        <Group gap="xs" role="group" aria-label="Conversation starters" className={classes.starters}>
          {STARTERS.map((starter) => (
            <Button
              key={starter}
              size="xs"
              radius="xl"
              variant="default"
              onClick={() => {
                setText(starter);
                box.current?.focus();
              }}
            >
              {starter}
            </Button>
          ))}
        </Group>
      ) : null}
      <div className={classes.row}>
        <Textarea
          ref={box}
          className={classes.box}
          classNames={{ input: classes.input }}
          size="md"
          autosize={!SIZED_BY_CSS}
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
        {actions}
        {/* One button that turns from Send into Stop and back, so keyboard focus stays on it. */}
        <Tooltip label={stopMode ? 'Stop' : 'Send'} openDelay={400}>
          <ActionIcon
            type={stopMode ? 'button' : 'submit'}
            size="input-md"
            variant="filled"
            aria-label={stopMode ? 'Stop reply' : 'Send'}
            onClick={stopMode ? onStop : undefined}
            loading={stopMode && stopping}
            disabled={!stopMode && busy}
          >
            {stopMode ? <IconPlayerStopFilled size={20} aria-hidden /> : <IconSend size={20} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      </div>
    </form>
  );
}
