import type { SafetyResources } from '../../api/gen/model';

const countries = [
  { code: 'GB', name: 'United Kingdom' },
  { code: 'US', name: 'United States' },
];

/** The server's answers for the countries tests use (as the table gives them). */
export function resourcesFor(country: string | null): SafetyResources {
  const base = { fallbackUrl: 'https://findahelpline.com', countries, lines: [], emergency: '', covered: false, country };
  switch (country) {
    case 'GB':
      return {
        ...base,
        covered: true,
        name: 'United Kingdom',
        emergency: '999',
        lines: [
          { name: 'Samaritans', kind: 'crisis', call: '116 123', callDial: '116123', source: 'https://www.samaritans.org/', checked: '2026-11-29' },
          { name: 'Childline (under 19)', kind: 'child', call: '0800 1111', callDial: '08001111', source: 'https://247sexualabusesupport.org.uk/faqs/', checked: '2026-11-29' },
        ],
      };
    case 'US':
      return {
        ...base,
        covered: true,
        name: 'United States',
        emergency: '911',
        lines: [
          { name: '988 Suicide & Crisis Lifeline', kind: 'crisis', call: '988', callDial: '988', text: '988', textDial: '988', source: 'https://health.wyo.gov/', checked: '2026-11-29' },
        ],
      };
    default:
      return base;
  }
}
