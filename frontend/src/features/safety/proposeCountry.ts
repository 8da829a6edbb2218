/**
 * Proposes the country whose helplines to show, from what the browser says: its time zone
 * says where the device is (an American studying in London has en-US and Europe/London: the
 * London lines are the ones that work), its languages' regions say where the person is from.
 * The time zone wins when it names one country; otherwise the first language with a region.
 */

/** Time zones that name one country, for the countries students most often study in. */
const ZONES: Record<string, string> = {
  'Europe/London': 'GB',
  'Europe/Belfast': 'GB',
  'Europe/Dublin': 'IE',
  'Europe/Berlin': 'DE',
  'Europe/Paris': 'FR',
  'Europe/Madrid': 'ES',
  'Atlantic/Canary': 'ES',
  'Europe/Rome': 'IT',
  'Europe/Amsterdam': 'NL',
  'Europe/Stockholm': 'SE',
  'Europe/Brussels': 'BE',
  'Europe/Vienna': 'AT',
  'Europe/Zurich': 'CH',
  'Europe/Copenhagen': 'DK',
  'Europe/Oslo': 'NO',
  'Europe/Helsinki': 'FI',
  'Europe/Lisbon': 'PT',
  'Europe/Warsaw': 'PL',
  'Europe/Prague': 'CZ',
  'Asia/Tokyo': 'JP',
  'Asia/Seoul': 'KR',
  'Asia/Shanghai': 'CN',
  'Asia/Chongqing': 'CN',
  'Asia/Hong_Kong': 'HK',
  'Asia/Singapore': 'SG',
  'Asia/Kolkata': 'IN',
  'Asia/Calcutta': 'IN',
  'Africa/Johannesburg': 'ZA',
  'America/Sao_Paulo': 'BR',
  'America/Mexico_City': 'MX',
  'America/Cancun': 'MX',
  'America/Monterrey': 'MX',
  'America/Tijuana': 'MX',
  'Pacific/Auckland': 'NZ',
  'America/New_York': 'US',
  'America/Chicago': 'US',
  'America/Denver': 'US',
  'America/Phoenix': 'US',
  'America/Los_Angeles': 'US',
  'America/Anchorage': 'US',
  'Pacific/Honolulu': 'US',
  'America/Detroit': 'US',
  'America/Toronto': 'CA',
  'America/Vancouver': 'CA',
  'America/Edmonton': 'CA',
  'America/Winnipeg': 'CA',
  'America/Halifax': 'CA',
  'America/St_Johns': 'CA',
  'America/Regina': 'CA',
};

/** Time zone prefixes that name one country. */
const ZONE_PREFIXES: [string, string][] = [
  ['Australia/', 'AU'],
];

function zoneCountry(timeZone: string): string | null {
  if (ZONES[timeZone]) return ZONES[timeZone];
  for (const [prefix, code] of ZONE_PREFIXES) if (timeZone.startsWith(prefix)) return code;
  return null;
}

/** The region of a language tag ("en-GB" → "GB", "zh-Hant-HK" → "HK"), if it has one. */
function languageRegion(tag: string): string | null {
  for (const part of tag.split(/[-_]/).slice(1)) {
    if (/^[A-Za-z]{2}$/.test(part)) return part.toUpperCase();
  }
  return null;
}

export function proposeCountry(languages: readonly string[], timeZone: string | undefined): string | null {
  const fromZone = timeZone ? zoneCountry(timeZone) : null;
  if (fromZone) return fromZone;
  for (const tag of languages) {
    const region = languageRegion(tag);
    if (region) return region;
  }
  return null;
}

/** The proposal for this browser. */
export function browserCountry(): string | null {
  let timeZone: string | undefined;
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timeZone = undefined;
  }
  const languages = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return proposeCountry(languages, timeZone);
}
