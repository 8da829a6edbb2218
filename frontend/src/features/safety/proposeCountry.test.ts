import { proposeCountry } from './proposeCountry';

describe('proposeCountry', () => {
  it('reads the country from the language and the time zone', () => {
    expect(proposeCountry(['en-GB'], 'Europe/London')).toBe('GB');
    expect(proposeCountry(['de-DE', 'en'], 'Europe/Berlin')).toBe('DE');
    expect(proposeCountry(['en-AU'], 'Australia/Sydney')).toBe('AU');
  });

  it('prefers the time zone: the lines that work are where the device is', () => {
    expect(proposeCountry(['en-US'], 'Europe/London')).toBe('GB');
    expect(proposeCountry(['zh-CN'], 'America/Toronto')).toBe('CA');
  });

  it('falls back to the first language with a region, then to nothing', () => {
    expect(proposeCountry(['en', 'pt-BR'], 'Etc/UTC')).toBe('BR');
    expect(proposeCountry(['zh-Hant-HK'], undefined)).toBe('HK');
    expect(proposeCountry(['en'], 'Etc/UTC')).toBeNull();
    expect(proposeCountry([], undefined)).toBeNull();
  });
});
