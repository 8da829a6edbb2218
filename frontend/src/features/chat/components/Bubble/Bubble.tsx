import { IconCoffee } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './Bubble.module.css';

type BubbleRole = 'user' | 'assistant';

/** The companion's round coffee avatar beside its messages. */
export function BubbleAvatar() {
  return (
    <span className={classes.avatar} aria-hidden>
      <IconCoffee size={18} stroke={1.6} />
    </span>
  );
}

/** A row of the conversation: the avatar (for the companion) and whatever sits beside it. */
export function BubbleLine({ role, children }: { role: BubbleRole; children: ReactNode }) {
  return (
    <div className={classes.line} data-role={role}>
      {role === 'assistant' ? <BubbleAvatar /> : null}
      {children}
    </div>
  );
}

/**
 * One message as the chat draws it: the user's on the right in the primary colour, the
 * companion's on the left on the surface colour, each announced as who said it. Small and
 * free of the chat's machinery (markdown, virtualising), so the landing page can show it too.
 */
export function Bubble({ role, children }: { role: BubbleRole; children: ReactNode }) {
  return (
    <BubbleLine role={role}>
      <div className={classes.bubble} data-role={role}>
        <span className={classes.hidden}>{role === 'assistant' ? 'Percolate said: ' : 'You said: '}</span>
        {children}
      </div>
    </BubbleLine>
  );
}
