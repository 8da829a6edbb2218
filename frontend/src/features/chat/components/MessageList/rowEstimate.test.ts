import { describe, expect, it } from 'vitest';
import { CHAT_CHROME_HEIGHT, estimateRowHeight, estimateScroller } from './rowEstimate';

// A message of the e2e and bench long chats (e2e/support.ts seedLongChat), and the heights its
// rows had in Chromium (phone.spec.ts checks the same against the real layout): 4 lines at
// 390 px, 2 at 1280 px; the companion's bubble has a 1 px border.
const SEEDED = 'Message 1999: we talked about the garden, the bus home and what to cook on **Sunday**.';
const STAMP = '2026-11-26T10:00:00Z';

describe('estimateScroller', () => {
  it('is the window less the chat screen around the conversation, at most the screen wide', () => {
    // A phone's chrome is taller: its controls are 44 px (issue 36).
    expect(estimateScroller({ width: 390, height: 844 })).toEqual({ width: 358, height: 548 });
    expect(estimateScroller({ width: 1280, height: 800 })).toEqual({ width: 960, height: 527 });
    expect(estimateScroller({ width: 700, height: CHAT_CHROME_HEIGHT - 10 })).toEqual({ width: 668, height: 0 });
    expect(estimateScroller({ width: 300, height: CHAT_CHROME_HEIGHT + 10 })).toEqual({ width: 268, height: 0 });
  });
});

describe('estimateRowHeight', () => {
  it('gives the heights a two-line and a four-line bubble are laid out at', () => {
    expect(estimateRowHeight({ role: 'user', content: SEEDED.slice(0, 86), timestamp: STAMP }, 358)).toBe(171);
    expect(estimateRowHeight({ role: 'assistant', content: SEEDED, timestamp: STAMP }, 358)).toBe(173);
    expect(estimateRowHeight({ role: 'user', content: SEEDED.slice(0, 86), timestamp: STAMP }, 960)).toBe(117);
    expect(estimateRowHeight({ role: 'assistant', content: SEEDED, timestamp: STAMP }, 960)).toBe(119);
  });

  it('grows with the text and its paragraphs, and narrows with the screen', () => {
    const one = estimateRowHeight({ role: 'assistant', content: 'Hello.', timestamp: STAMP }, 960);
    const long = estimateRowHeight({ role: 'assistant', content: 'word '.repeat(200), timestamp: STAMP }, 960);
    const paragraphs = estimateRowHeight({ role: 'assistant', content: 'Hello.\n\nAgain.\n\n- one\n- two', timestamp: STAMP }, 960);
    expect(long).toBeGreaterThan(one + 5 * 27);
    expect(paragraphs).toBeGreaterThan(one + 3 * 27);
    expect(estimateRowHeight({ role: 'assistant', content: 'word '.repeat(200), timestamp: STAMP }, 358)).toBeGreaterThan(long);
  });

  it('leaves out the time of a notice and of a message without one', () => {
    const stamped = estimateRowHeight({ role: 'assistant', content: 'Hello.', timestamp: STAMP }, 960);
    expect(estimateRowHeight({ role: 'assistant', content: 'Hello.' }, 960)).toBeLessThan(stamped);
    expect(estimateRowHeight({ role: 'assistant', content: 'Hello.', timestamp: STAMP, notice: 'failed' }, 960)).toBeLessThan(stamped);
  });
});
