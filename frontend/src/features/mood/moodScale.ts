import { moods } from '../checkins/moods';

/**
 * The five moods of a check-in and the colours the mood page draws them in.
 *
 * The scale runs from clay (the brand's warm warning hue) through sand to a deep blue-teal: a
 * diverging orange–blue scale, which every common kind of colour blindness still tells apart.
 * Colour is never the only signal: every chart also draws the mood as a number or a word, and
 * `ink` is the text colour that meets 4.5:1 on each fill (moodScale.test.ts checks it).
 */
export type Mood = 1 | 2 | 3 | 4 | 5;

export const MOODS: readonly Mood[] = [1, 2, 3, 4, 5];

/** The words for each mood, as the check-in card names them. */
export const MOOD_LABELS = Object.fromEntries(moods.map((m) => [m.value, m.label])) as Record<Mood, string>;

/** Fill and the text drawn on it, per mood; the same on both themes (each cell has its own outline). */
export const MOOD_COLORS: Record<Mood, { fill: string; ink: string }> = {
  1: { fill: '#A94A34', ink: '#FFFDF9' },
  2: { fill: '#EDB6A5', ink: '#2B1D14' },
  3: { fill: '#E2CAAE', ink: '#2B1D14' },
  4: { fill: '#9CC8DD', ink: '#2B1D14' },
  5: { fill: '#2C6A88', ink: '#FFFDF9' },
};

/** The nearest whole mood to a mean (clamped to 1–5). */
export function nearestMood(mean: number): Mood {
  return Math.min(5, Math.max(1, Math.round(mean))) as Mood;
}

/** A mean mood as the page writes it: one decimal, then the nearest word ("3.6, Good"). */
export function moodText(mean: number): string {
  return `${formatMean(mean)} (${MOOD_LABELS[nearestMood(mean)]})`;
}

/** One decimal, without a trailing ".0" for whole moods. */
export function formatMean(mean: number): string {
  return Number.isInteger(mean) ? String(mean) : mean.toFixed(1);
}

/** WCAG relative luminance of a #RRGGBB colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #RRGGBB colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
