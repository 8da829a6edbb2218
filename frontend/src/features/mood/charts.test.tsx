import { render, screen, within } from '../../test-utils';
import { MonthCalendar } from './MonthCalendar';
import { MoodTrend } from './MoodTrend';
import { TagPatterns } from './TagPatterns';
import { WeekdayChart } from './WeekdayChart';
import { YearPixels } from './YearPixels';

describe('the mood charts', () => {
  it('draws a check-in on its day of the month, with its number as well as its colour, and lists it in the table', async () => {
    const { user, container } = render(
      <MonthCalendar month="2026-11" days={[{ date: '2026-11-14', mood: 4, count: 1 }, { date: '2026-10-30', mood: 1, count: 1 }]} />,
    );
    const day = container.querySelector('[data-date="2026-11-14"]')!;
    expect(day).toHaveAttribute('data-mood', '4');
    expect(day.querySelector('rect')).toHaveAttribute('fill', '#9CC8DD');
    expect(within(day as HTMLElement).getByText('4')).toBeInTheDocument();
    expect(container.querySelector('[data-date="2026-11-15"]')).not.toHaveAttribute('data-mood');
    // 1 November 2026 is a Sunday: the seventh column.
    expect(container.querySelectorAll('[data-date^="2026-11-"]')).toHaveLength(30);
    expect(screen.getByText('November 2026: you checked in on 1 day.')).toBeInTheDocument();

    await user.click(screen.getByText('Show as a table'));
    const table = screen.getByRole('table', { name: 'Moods in November 2026' });
    expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual(['DayMood', 'Saturday 14 November4 (Good)']);
  });

  it('says the last 30 days in a sentence: how many days, the mean and the range', () => {
    render(
      <MoodTrend
        end="2026-11-29"
        days={[
          { date: '2026-10-30', mood: 1, count: 1 },
          { date: '2026-10-31', mood: 2, count: 1 },
          { date: '2026-11-28', mood: 5, count: 1 },
          { date: '2026-11-29', mood: 3.5, count: 1 },
        ]}
      />,
    );
    expect(screen.getByText('The last 30 days: 3 days checked in, a mean mood of 3.5, from 2 to 5.')).toBeInTheDocument();
  });

  it('names the best and the hardest day of the week, and leaves a weekday without check-ins blank', async () => {
    const { user } = render(
      <WeekdayChart
        weekdays={[
          { weekday: 0, mood: 2.25, count: 4 },
          { weekday: 5, mood: 4.5, count: 2 },
          { weekday: 6, mood: 0, count: 0 },
        ]}
      />,
    );
    expect(screen.getByText('On average your best day is Saturday (4.5) and your hardest is Monday (2.3).')).toBeInTheDocument();
    await user.click(screen.getByText('Show as a table'));
    const rows = within(screen.getByRole('table', { name: 'Mean mood per day of the week' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Monday2.34');
    expect(rows[7]).toHaveTextContent('Sunday—0');
  });

  it('sorts tags into better and harder days, most telling first, with their counts', () => {
    render(
      <TagPatterns
        tags={[
          { tag: 'sleep', withMood: 4, withCount: 6, withoutMood: 3.5, withoutCount: 9 },
          { tag: 'exercise', withMood: 4.2, withCount: 5, withoutMood: 3, withoutCount: 10 },
          { tag: 'exams', withMood: 2, withCount: 7, withoutMood: 3.8, withoutCount: 8 },
        ]}
      />,
    );
    const better = screen.getByRole('heading', { name: 'With better days' }).nextElementSibling as HTMLElement;
    expect(within(better).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Exercise: 4.2 with it (5 check-ins), 3 without (10 check-ins)',
      'Sleep: 4 with it (6 check-ins), 3.5 without (9 check-ins)',
    ]);
    const harder = screen.getByRole('heading', { name: 'With harder days' }).nextElementSibling as HTMLElement;
    expect(within(harder).getByRole('listitem')).toHaveTextContent('Exams: 2 with it (7 check-ins), 3.8 without (8 check-ins)');
  });

  it('draws a year in pixels, each day in its mood’s path, with each month in the table', async () => {
    const { user, container } = render(
      <YearPixels
        end="2026-11-29"
        days={[
          { date: '2025-11-29', mood: 3, count: 1 },
          { date: '2025-11-30', mood: 1, count: 1 },
          { date: '2025-12-01', mood: 2, count: 1 },
          { date: '2026-11-29', mood: 5, count: 1 },
        ]}
      />,
    );
    const pixel = (date: string) => container.querySelector(`[data-testid="year-pixels"] path[data-days~="${date}"]`);
    expect(pixel('2026-11-29')).toHaveAttribute('data-mood', '5');
    expect(pixel('2026-11-29')).toHaveAttribute('fill', '#2C6A88');
    expect(pixel('2025-12-01')).toHaveAttribute('data-mood', '2');
    expect(pixel('2026-11-28')).not.toHaveAttribute('data-mood');
    expect(pixel('2026-11-28')).toHaveAttribute('fill', 'none');
    // The 365 days are today and the 364 before it: 30 November 2025 is the first, drawn in a
    // thirteenth column; nothing after the last day, nothing before the first.
    expect(pixel('2025-11-30')).toHaveAttribute('data-mood', '1');
    expect(pixel('2026-11-30')).toBeNull();
    expect(pixel('2025-11-29')).toBeNull();
    for (const p of container.querySelectorAll('[data-testid="year-pixels"] path')) {
      expect(p.getAttribute('d')!.match(/z/g)).toHaveLength(p.getAttribute('data-days')!.split(' ').length);
    }
    expect(screen.getByText('The last 365 days: you checked in on 3 days.')).toBeInTheDocument();
    await user.click(screen.getByText('Show as a table'));
    const rows = within(screen.getByRole('table', { name: 'Your year, month by month' })).getAllByRole('row');
    expect(rows).toHaveLength(14);
    expect(rows[1]).toHaveTextContent('November 202511');
    expect(rows[2]).toHaveTextContent('December 202512');
    expect(rows[13]).toHaveTextContent('November 202615');
  });

  // The sentence's "365 days", the days drawn and the table's months must be the same days, wherever
  // today falls in its month (mid-month, a month's first or last day, a leap day in the window).
  it.each(['2026-11-29', '2026-11-15', '2026-12-01', '2026-11-30', '2026-12-31', '2028-03-01', '2028-12-31'])(
    'draws exactly the 365 days up to %s, each once, and the sentence and the table count the same days',
    async (end) => {
      // A check-in on every day of the window, and on the day on each side of it.
      const day = (n: number) => new Date(Date.parse(`${end}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
      const window = Array.from({ length: 365 }, (_, i) => day(i - 364));
      const days = [day(-365), ...window, day(1)].map((date, i) => ({ date, mood: (i % 5) + 1, count: 1 }));
      const { user, container } = render(<YearPixels end={end} days={days} />);
      const drawn = [...container.querySelectorAll('[data-testid="year-pixels"] path')].flatMap((p) => p.getAttribute('data-days')!.split(' '));
      expect(drawn.sort()).toEqual(window);
      expect(screen.getByText('The last 365 days: you checked in on 365 days.')).toBeInTheDocument();
      await user.click(screen.getByText('Show as a table'));
      const rows = within(screen.getByRole('table', { name: 'Your year, month by month' })).getAllByRole('row').slice(1);
      const counted = rows.map((r) => Number(within(r).getAllByRole('cell')[0].textContent));
      expect(counted.reduce((a, b) => a + b, 0)).toBe(365);
      expect(counted.every((n) => n > 0)).toBe(true);
    },
  );
});
