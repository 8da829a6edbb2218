/**
 * First estimates of the conversation's sizes, before the browser has laid anything out: the
 * scroller's box from the window's, and each row's height from its text and the bubble's width.
 * The virtualiser renders the rows these say are in view, so the closer they are, the fewer rows
 * the first paint waits for, and the fewer the ResizeObserver's measurements then add or drop
 * (each change of the rows in view is one more render and layout before that paint). They are
 * estimates only: every row is measured once laid out, and the scroller observed.
 *
 * Pure arithmetic (no CSS, no DOM), so the e2e tests can check it against the real layout.
 * The figures follow the CSS of the chat screen, the shell and the bubbles (the style guide's
 * 17 px text at a line height of 1.6); change them together.
 */

/** The chat screen's widest (ChatScreen.module.css) and the shell's padding each side. */
const SCREEN_MAX_WIDTH = 960;
const SHELL_PADDING = 16;

/**
 * What the chat screen puts around the conversation, a chat in progress with a one-line
 * composer: the navbar (64 px), the shell's padding, the title pill, the composer, the voice
 * toolbar, the crisis line and the gaps between them. Above it, an ended chat's summary or an
 * alert make the conversation shorter than this says (the estimate then renders a row or two
 * more than in view, as a window-sized one always did).
 */
export const CHAT_CHROME_HEIGHT = 273;
/**
 * On a phone (600 px and narrower) every control is at least 44 px tall (global.css, issue 36):
 * End Session in the header, the composer and the voice switch's row add this much.
 */
const PHONE_WIDTH = 600;
const PHONE_TARGETS_EXTRA = 23;

/** The conversation's scroller as the first render assumes it: the window less the screen's chrome. */
export function estimateScroller(viewport: { width: number; height: number }): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(SCREEN_MAX_WIDTH, viewport.width - 2 * SHELL_PADDING)),
    height: Math.max(0, viewport.height - CHAT_CHROME_HEIGHT - (viewport.width <= PHONE_WIDTH ? PHONE_TARGETS_EXTRA : 0)),
  };
}

/** The row's own padding (MessageList.module.css .row) each side. */
const ROW_PADDING_X = 4;
const ROW_PADDING_Y = 8;
/** A bubble: at most min(720 px, 80 % of the row), padded 10 × 16 px, the companion's with a 1 px border. */
const BUBBLE_MAX = 720;
const BUBBLE_SHARE = 0.8;
const BUBBLE_PADDING_X = 16;
const BUBBLE_PADDING_Y = 10;
/** One line of a bubble's text (17 px at 1.6), and its time under it (4 px above, one small line). */
const LINE = 27.2;
const TIME = 4 + 22.4;
/**
 * Inter's mean advance at 17 px, per character of ordinary prose, and the width a line loses
 * on average to wrapping between words.
 */
const CHAR_WIDTH = 8.2;
const WRAP_LOSS = 40;

interface Row {
  role: 'user' | 'assistant';
  content: string;
  timestamp?: string;
  notice?: string;
}

/** The lines `text` takes in a column `width` px wide: each line of its source wraps on its own; a blank one between paragraphs is half a line. */
function linesOf(text: string, width: number): number {
  const perLine = Math.max(1, (width - WRAP_LOSS) / CHAR_WIDTH);
  let lines = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const length = end - start;
    lines += length === 0 ? 0.5 : Math.ceil(length / perLine);
    start = end + 1;
  }
  return Math.max(1, lines);
}

/** A row's height before it is measured, in a scroller `scrollerWidth` px wide. */
export function estimateRowHeight(row: Row, scrollerWidth: number): number {
  const rowWidth = Math.max(0, scrollerWidth - 2 * ROW_PADDING_X);
  const border = row.role === 'assistant' ? 2 : 0;
  const bubble = Math.min(BUBBLE_MAX, BUBBLE_SHARE * rowWidth);
  const text = linesOf(row.content, bubble - 2 * BUBBLE_PADDING_X - border) * LINE;
  const time = row.timestamp && !row.notice ? TIME : 0;
  return Math.round(2 * ROW_PADDING_Y + 2 * BUBBLE_PADDING_Y + border + text + time);
}
