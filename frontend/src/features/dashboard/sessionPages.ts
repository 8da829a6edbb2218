/**
 * The dashboard's session list, page by page (GET /api/chat/sessions, or GET
 * /api/profile/sessions?query= while searching). Each page is the contract's
 * array; the next page's URL comes from the RFC 8288 `Link: <…>; rel="next"`
 * header, which is absent on the last page.
 */
import { useInfiniteQuery, type InfiniteData, type keepPreviousData } from '@tanstack/react-query';
import { getListChatSessionsQueryKey, getListChatSessionsUrl } from '../../api/gen/chat/chat';
import type { SessionListItem } from '../../api/gen/model';
import { authorizedFetch, errorFromResponse, readBody } from '../../api/authorizedFetch';
import { getSearchProfileSessionsUrl } from '../../api/gen/profile/profile';

export interface SessionPage {
  items: SessionListItem[];
  /** The next page's URL, or null on the last page. */
  next: string | null;
}

/** The target of a `rel="next"` link in a Link header (RFC 8288), if any. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2]!)) return match[1]!;
  }
  return null;
}

export async function fetchSessionPage(url: string, signal?: AbortSignal): Promise<SessionPage> {
  const response = await authorizedFetch(url, { method: 'GET', signal });
  if (!response.ok) throw await errorFromResponse(response);
  const items = ((await readBody(response)) as SessionListItem[] | null) ?? [];
  return { items, next: nextLink(response.headers.get('Link')) };
}

/** The first page's URL: the whole list, or the server's search when query is not blank. */
export function firstPageUrl(query: string): string {
  const q = query.trim();
  return q ? getSearchProfileSessionsUrl({ query: q }) : getListChatSessionsUrl();
}

/** Every page's sessions, in order. */
export function allSessions(data: InfiniteData<SessionPage> | undefined): SessionListItem[] {
  return data ? data.pages.flatMap((page) => page.items) : [];
}

/**
 * The list's cache key: the list's own key, paged, so that what changes sessions
 * (features/sessions/mutations.ts) refreshes it with the list.
 */
export function sessionPagesKey(query: string) {
  return [...getListChatSessionsQueryKey(), 'pages', query.trim()] as const;
}

export function useSessionPages(
  query: string,
  refetchInterval?: (data: InfiniteData<SessionPage> | undefined) => number | false,
  placeholderData?: typeof keepPreviousData,
) {
  return useInfiniteQuery({
    queryKey: sessionPagesKey(query),
    queryFn: ({ pageParam, signal }) => fetchSessionPage(pageParam, signal),
    initialPageParam: firstPageUrl(query),
    getNextPageParam: (last: SessionPage) => last.next ?? undefined,
    refetchInterval: refetchInterval ? (q) => refetchInterval(q.state.data) : undefined,
    placeholderData,
  });
}
