import { JOURNAL_PROMPTS, firstName, greetingFor, promptOfDay } from './glance';

describe('dashboard glance helpers', () => {
  it('greets by local time of day', () => {
    expect(greetingFor(new Date(2026, 10, 23, 8, 0))).toBe('Good morning');
    expect(greetingFor(new Date(2026, 10, 23, 12, 0))).toBe('Good afternoon');
    expect(greetingFor(new Date(2026, 10, 23, 19, 30))).toBe('Good evening');
  });

  it('takes the first name', () => {
    expect(firstName('Sam Rivera')).toBe('Sam');
    expect(firstName('  ')).toBe('');
    expect(firstName(undefined)).toBe('');
  });

  it('keeps the prompt for the whole day and changes it the next day', () => {
    const morning = promptOfDay(new Date(2026, 10, 23, 0, 5));
    expect(promptOfDay(new Date(2026, 10, 23, 23, 55))).toBe(morning);
    expect(promptOfDay(new Date(2026, 10, 24, 9, 0))).not.toBe(morning);
    expect(JOURNAL_PROMPTS).toContain(morning);
    expect(JOURNAL_PROMPTS.length).toBeGreaterThanOrEqual(14);
  });
});
