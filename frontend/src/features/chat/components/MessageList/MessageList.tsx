import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLiveText, type LiveText } from '../../liveText';
import type { ChatMessage } from '../../types';
import classes from './MessageList.module.css';
import { CrisisLinks } from './CrisisLinks';
import { hasCrisisResources } from './crisis';
import { RevealText } from './RevealText';
import { SafeMarkdown } from '../SafeMarkdown/SafeMarkdown';
import { Bubble, BubbleLine } from '../Bubble/Bubble';
import { measureAfterLayout } from '../../../../app/virtualRows';
import { estimateRowHeight, estimateScroller } from './rowEstimate';

const MARKS = { stopped: 'Stopped', interrupted: 'Interrupted' } as const;

const renderMarkdown = (visible: string) => <SafeMarkdown text={visible} />;

/** One formatter for every bubble (toLocaleTimeString with options builds one per call). */
let timeFormat: Intl.DateTimeFormat | undefined;

function formatTime(timestamp?: string): string | null {
  if (!timestamp) return null;
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return null;
  timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
  return timeFormat.format(date);
}

interface BubbleProps {
  message: ChatMessage;
  onRevealed: (id: string) => void;
  /** Shown on the message that ends a turn whose reply failed, was cut off or was stopped. */
  onRetry?: () => void;
  /** The text of the reply being streamed, and what to do once more of it shows (keep it in view). */
  live?: LiveText;
  onGrow?: () => void;
}

function RetryButton({ onRetry }: { onRetry: () => void }) {
  return (
    <Button size="compact-sm" variant="light" leftSection={<IconRefresh size={14} aria-hidden />} onClick={onRetry} mt={6}>
      Retry
    </Button>
  );
}

/**
 * One message. A user's words are plain text; a reply is the safe markdown
 * subset (no raw HTML, http(s) links only): model output is untrusted.
 */
const MessageBubble = memo(function MessageBubble({ message, onRevealed, onRetry, live, onGrow }: BubbleProps) {
  const time = formatTime(message.timestamp);
  const isAi = message.role === 'assistant';
  // A reply being streamed shows its words as they arrive (once a frame), rendering this bubble alone.
  const streamed = useLiveText(live, message.streaming ? message.id : null);
  const content = streamed ?? message.content;
  useEffect(() => {
    // After React's commit (a store's update commits synchronously): the virtualiser's scroll
    // renders the list, which React refuses to do from inside a commit.
    if (streamed !== null && onGrow) queueMicrotask(onGrow);
  }, [streamed, onGrow]);

  if (message.notice) {
    // A line about the last message, in the thread: the server's words, once, with Retry.
    return (
      <BubbleLine role="assistant">
        <div
          className={classes.notice}
          data-notice={message.notice}
          data-testid="reply-notice"
          role={message.notice === 'failed' ? 'alert' : 'status'}
        >
          <span>{message.content}</span>
          {onRetry ? <RetryButton onRetry={onRetry} /> : null}
        </div>
      </BubbleLine>
    );
  }

  return (
    <Bubble role={message.role}>
      <div data-testid={isAi ? 'ai-message' : 'user-message'} className={classes.content}>
        <RevealText
          text={content}
          animate={Boolean(message.reveal)}
          onDone={message.reveal ? () => onRevealed(message.id) : undefined}
          render={isAi ? renderMarkdown : undefined}
        />
      </div>
      {isAi && !message.streaming && !message.reveal && hasCrisisResources(message.content) ? <CrisisLinks /> : null}
      {message.status ? (
        <span className={classes.mark} data-testid="reply-mark">
          {MARKS[message.status]}
        </span>
      ) : null}
      {time ? <time className={classes.time}>{time}</time> : null}
      {onRetry ? <RetryButton onRetry={onRetry} /> : null}
    </Bubble>
  );
});

interface MessageListProps {
  messages: ChatMessage[];
  /** The text of the reply being streamed (useChatConversation's `live`). */
  live?: LiveText;
  /** Called when a word-by-word reveal has finished. */
  onRevealed: (id: string) => void;
  /** Rendered after the last message (the thinking indicator). */
  footer?: ReactNode;
  /** The message that carries Retry, and what it does. */
  retryId?: string | null;
  onRetry?: () => void;
}

/**
 * The conversation, virtualised: only the rows near the viewport are in the
 * DOM, so a session of thousands of messages scrolls as smoothly as a short
 * one. Rows are measured by a ResizeObserver, so bubbles of any height fit.
 *
 * The rows are in the screen's first render (itself a transition, which React renders in slices
 * of a few milliseconds: see useChatConversation), opened on the newest messages: no second
 * render and commit before the first message shows. The one layout that commit forces is the
 * screen's own (the scroller's size, and its scroll to the end before the first paint), which
 * the frame then uses as it is.
 */
export function MessageList({ messages, live, onRevealed, footer, retryId, onRetry }: MessageListProps) {
  // The scroller is this component's own element, so its ref is set before the virtualiser's
  // layout effects run (a parent's ref is set after its children's effects).
  const scrollRef = useRef<HTMLDivElement>(null);
  // Rows beyond the view each way, for scrolling. The first render has one: the rows in view are
  // what the first paint waits for; the others follow once it is done, in a transition.
  const [overscan, setOverscan] = useState(1);
  useEffect(() => {
    const frame = requestAnimationFrame(() => startTransition(() => setOverscan(8)));
    return () => cancelAnimationFrame(frame);
  }, []);
  // The scroller is not laid out when the rows first render: its size is estimated from the
  // window's (less the screen's header, composer and toolbar), and each row's from its text, so
  // the first render already has the newest rows, about as many as fill the view, rather than the
  // oldest (rendered, measured and thrown away as soon as the list scrolls to the end) or a
  // window's worth of 88 px guesses (twice the rows, and a second render once they are measured).
  const [firstRect] = useState(() => estimateScroller({ width: window.innerWidth, height: window.innerHeight }));
  // Stable while the messages are, so that the virtualiser keeps its measurements between renders.
  const getItemKey = useCallback((index: number) => messages[index].id, [messages]);
  const estimates = useMemo(() => messages.map((message) => estimateRowHeight(message, firstRect.width)), [messages, firstRect]);
  const estimateSize = useCallback((index: number) => estimates[index], [estimates]);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualiser owns its own memoisation.
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan,
    initialRect: firstRect,
    initialOffset: () => Math.max(0, estimates.reduce((total, height) => total + height, 0) - firstRect.height),
    getItemKey,
    // A row's size comes from the ResizeObserver, after the browser's own layout.
    measureElement: measureAfterLayout<HTMLDivElement>(),
  });

  // Follow the conversation: keep the newest message in view as it grows.
  const last = messages[messages.length - 1];
  const lastLength = last?.content.length ?? 0;
  // Before the browser paints (a layout effect), so the list is never drawn away from its end.
  useLayoutEffect(() => {
    if (messages.length > 0) virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, lastLength, footer, virtualizer]);
  // A streamed reply grows without the list rendering: its bubble asks, at most once a frame.
  const follow = useCallback(() => {
    const count = virtualizer.options.count;
    if (count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [virtualizer]);

  return (
    <div ref={scrollRef} className={classes.scroller} role="log" aria-label="Conversation" tabIndex={0}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const message = messages[item.index];
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className={classes.row} style={{ transform: `translateY(${item.start}px)` }}>
              <MessageBubble
                message={message}
                onRevealed={onRevealed}
                onRetry={message.id === retryId ? onRetry : undefined}
                live={message.streaming ? live : undefined}
                onGrow={message.streaming ? follow : undefined}
              />
            </div>
          );
        })}
      </div>
      {footer ? <div style={{ padding: '8px 4px 8px 46px' }}>{footer}</div> : null}
    </div>
  );
}
