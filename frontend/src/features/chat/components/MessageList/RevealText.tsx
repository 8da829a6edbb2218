import { useEffect, useMemo, useState, type ReactNode } from 'react';

/** AI text reveal speed (spec §9): one word every 100 ms. */
export const REVEAL_INTERVAL_MS = 100;

interface RevealTextProps {
  text: string;
  /** Reveal word by word; otherwise the whole text shows at once. */
  animate: boolean;
  /** Called once every word is visible. */
  onDone?: () => void;
  /** How the visible part is drawn; plain text by default. */
  render?: (visible: string) => ReactNode;
}

/**
 * Renders `text` (as plain text, never HTML, unless `render` says otherwise), optionally revealing it one word
 * every 100 ms. Used for replies that arrive whole; streamed replies already
 * appear as their tokens arrive.
 */
export function RevealText({ text, animate, onDone, render = (visible) => visible }: RevealTextProps) {
  // Words with the whitespace that follows them, so line breaks survive.
  const words = useMemo(() => text.match(/\S+\s*|\s+/g) ?? [], [text]);
  const [shown, setShown] = useState(animate ? 0 : words.length);

  useEffect(() => {
    if (!animate) return;
    const timer = window.setInterval(() => {
      setShown((count) => {
        const next = Math.min(count + 1, words.length);
        if (next >= words.length) window.clearInterval(timer);
        return next;
      });
    }, REVEAL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [animate, words.length]);

  const complete = !animate || shown >= words.length;
  useEffect(() => {
    if (animate && complete) onDone?.();
  }, [animate, complete, onDone]);

  return <>{render(complete ? text : words.slice(0, shown).join(''))}</>;
}
