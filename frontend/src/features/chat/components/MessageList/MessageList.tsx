import { VisuallyHidden } from '@mantine/core';
import { IconCoffee } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, type ReactNode } from 'react';
import type { ChatMessage } from '../../types';
import classes from './MessageList.module.css';
import { RevealText } from './RevealText';

function formatTime(timestamp?: string): string | null {
  if (!timestamp) return null;
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

interface BubbleProps {
  message: ChatMessage;
  onRevealed: (id: string) => void;
}

/** One message. Content is rendered as text, never as HTML: model output is untrusted. */
const MessageBubble = memo(function MessageBubble({ message, onRevealed }: BubbleProps) {
  const time = formatTime(message.timestamp);
  const isAi = message.role === 'assistant';
  return (
    <div className={classes.line} data-role={message.role}>
      {isAi ? (
        <span className={classes.avatar} aria-hidden>
          <IconCoffee size={18} stroke={1.6} />
        </span>
      ) : null}
      <div className={classes.bubble} data-role={message.role}>
        <VisuallyHidden>{isAi ? 'Percolate said: ' : 'You said: '}</VisuallyHidden>
        <span data-testid={isAi ? 'ai-message' : 'user-message'}>
          <RevealText
            text={message.content}
            animate={Boolean(message.reveal)}
            onDone={message.reveal ? () => onRevealed(message.id) : undefined}
          />
        </span>
        {time ? <time className={classes.time}>{time}</time> : null}
      </div>
    </div>
  );
});

interface MessageListProps {
  messages: ChatMessage[];
  /** Called when a word-by-word reveal has finished. */
  onRevealed: (id: string) => void;
  /** Rendered after the last message (the thinking indicator). */
  footer?: ReactNode;
}

/**
 * The conversation, virtualised: only the rows near the viewport are in the
 * DOM, so a session of thousands of messages scrolls as smoothly as a short
 * one. Rows are measured as they render, so bubbles of any height fit.
 */
export function MessageList({ messages, onRevealed, footer }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualiser owns its own memoisation.
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 88,
    overscan: 8,
    getItemKey: (index) => messages[index].id,
  });

  // Follow the conversation: keep the newest message in view as it grows.
  const last = messages[messages.length - 1];
  const lastLength = last?.content.length ?? 0;
  useEffect(() => {
    if (messages.length > 0) virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, lastLength, footer, virtualizer]);

  return (
    <div ref={scrollRef} className={classes.scroller} role="log" aria-label="Conversation" tabIndex={0}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const message = messages[item.index];
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className={classes.row} style={{ transform: `translateY(${item.start}px)` }}>
              <MessageBubble message={message} onRevealed={onRevealed} />
            </div>
          );
        })}
      </div>
      {footer ? <div style={{ padding: '8px 4px 8px 46px' }}>{footer}</div> : null}
    </div>
  );
}
