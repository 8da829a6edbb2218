import { useQuery } from '@tanstack/react-query';
import { getListChatSessionsQueryKey, getListChatSessionsUrl } from '../../api/gen/chat/chat';
import { fetchSessionPage } from '../dashboard/sessionPages';
import { addMonths, localToday } from './dates';

/** The days "on this day" looks back to: a month ago and a year ago. */
export function onThisDayDates(today: string): { monthAgo: string; yearAgo: string } {
  return { monthAgo: addMonths(today, -1), yearAgo: addMonths(today, -12) };
}

/** A session's last activity as a day in the reader's time zone. */
function localDay(iso: string): string {
  return localToday(new Date(iso));
}

/** At most this many pages of 200 are read back through the session list (1,000 sessions). */
const MAX_PAGES = 5;

/**
 * The titles of the sessions last active on each of `days`, read from the session list (most
 * recent first) until it passes the earliest of them; an older session than 1,000 back is not
 * looked for.
 */
export async function sessionTitlesOn(days: string[], signal?: AbortSignal): Promise<Record<string, string[]>> {
  const earliest = [...days].sort()[0];
  const out: Record<string, string[]> = Object.fromEntries(days.map((d) => [d, []]));
  let url: string | null = getListChatSessionsUrl({ limit: 200 });
  for (let i = 0; url && i < MAX_PAGES; i++) {
    const page = await fetchSessionPage(url, signal);
    for (const s of page.items) {
      const day = localDay(s.updatedAt);
      if (out[day]) out[day].push(s.title);
    }
    const last = page.items.at(-1);
    if (!last || localDay(last.updatedAt) < earliest) break;
    url = page.next;
  }
  return out;
}

/** The session titles of a month ago and a year ago (cached under the session list's key). */
export function useSessionTitlesOn(days: string[]) {
  return useQuery({
    queryKey: [...getListChatSessionsQueryKey(), 'on-days', ...days],
    queryFn: ({ signal }) => sessionTitlesOn(days, signal),
    staleTime: 60_000,
  });
}
