import { describe, expect, it } from 'vitest';
import { contrast, formatMean, MOOD_COLORS, MOODS, moodText, nearestMood } from './moodScale';

describe('the mood scale', () => {
  it('writes every mood on its fill at 4.5:1 or more (WCAG AA)', () => {
    for (const m of MOODS) expect(contrast(MOOD_COLORS[m].ink, MOOD_COLORS[m].fill), `mood ${m}`).toBeGreaterThanOrEqual(4.5);
  });

  it('rounds a mean to the nearest mood and writes it with its word', () => {
    expect(nearestMood(0.2)).toBe(1);
    expect(nearestMood(3.5)).toBe(4);
    expect(nearestMood(7)).toBe(5);
    expect(moodText(3.64)).toBe('3.6 (Good)');
    expect(formatMean(4)).toBe('4');
  });
});
