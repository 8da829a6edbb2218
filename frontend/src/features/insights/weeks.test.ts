import type { WeeklyReport } from '../../api/gen/model';
import { aWeeklyReport } from '../../test-utils';
import { emotionColors, lastWeeks, nextMonday, OKABE_ITO, OTHER_COLOR } from './weeks';

function report(weekStart: string, emotions: WeeklyReport['emotions']): WeeklyReport {
  return aWeeklyReport({ id: weekStart, weekStart, sessionCount: 1, emotions, themes: [], suggestion: 's' });
}

describe('weeks', () => {
  it('lays out the eight weeks up to the newest report, oldest first, gaps kept', () => {
    const weeks = lastWeeks([report('2026-11-16', []), report('2026-10-26', [])]);
    expect(weeks.map((w) => w.weekStart)).toEqual([
      '2026-09-28', '2026-10-05', '2026-10-12', '2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16',
    ]);
    expect(weeks.map((w) => Boolean(w.report))).toEqual([false, false, false, false, true, false, false, true]);
    expect(lastWeeks([])).toEqual([]);
  });

  it('gives the seven most frequent feelings their own Okabe–Ito colour and the rest grey', () => {
    const names = ['joy', 'gratitude', 'hope', 'calm', 'pride', 'love', 'sadness', 'loneliness', 'anxiety'] as const;
    const colors = emotionColors(lastWeeks([report('2026-11-16', names.map((emotion, i) => ({ emotion, count: 20 - i })))]));
    expect(names.slice(0, 7).map((e) => colors.get(e))).toEqual([...OKABE_ITO]);
    expect(colors.get('loneliness')).toBe(OTHER_COLOR);
    expect(colors.get('anxiety')).toBe(OTHER_COLOR);
  });

  it('names the coming Monday (UTC) as the day reports are made', () => {
    expect(nextMonday(new Date('2026-11-25T12:00:00Z'))).toBe('Monday, November 30');
    expect(nextMonday(new Date('2026-11-23T12:00:00Z'))).toBe('Monday, November 30');
    expect(nextMonday(new Date('2026-11-29T23:00:00Z'))).toBe('Monday, November 30');
  });
});
