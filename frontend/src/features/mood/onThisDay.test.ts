import { http, HttpResponse } from 'msw';
import type { SessionListItem } from '../../api/gen/model';
import { aSession, server } from '../../test-utils';
import { onThisDayDates, sessionTitlesOn } from './onThisDay';

/** A session last active at local noon of `day`. */
function activeOn(title: string, day: string): SessionListItem {
  return aSession({ title, updatedAt: new Date(`${day}T12:00:00`).toISOString() });
}

describe('on this day', () => {
  it('looks back a month and a year, to the month’s last day when it is shorter', () => {
    expect(onThisDayDates('2026-11-29')).toEqual({ monthAgo: '2026-10-29', yearAgo: '2025-11-29' });
    expect(onThisDayDates('2026-03-31')).toEqual({ monthAgo: '2026-02-28', yearAgo: '2025-03-31' });
    expect(onThisDayDates('2028-02-29')).toEqual({ monthAgo: '2028-01-29', yearAgo: '2027-02-28' });
  });

  it('reads the session list page by page until it passes the earliest day, and keeps the titles of each day', async () => {
    const pages: string[] = [];
    server.use(
      http.get('*/api/chat/sessions', ({ request }) => {
        const url = new URL(request.url);
        pages.push(url.search);
        if (!url.searchParams.get('cursor')) {
          return HttpResponse.json([activeOn('Today', '2026-11-29'), activeOn('Exam eve', '2026-10-29')], {
            headers: { Link: '</api/chat/sessions?limit=200&cursor=p2>; rel="next"' },
          });
        }
        if (url.searchParams.get('cursor') === 'p2') {
          return HttpResponse.json([activeOn('Moving in', '2025-11-29'), activeOn('Older', '2025-11-01')], {
            headers: { Link: '</api/chat/sessions?limit=200&cursor=p3>; rel="next"' },
          });
        }
        throw new Error('read past the earliest day');
      }),
    );

    expect(await sessionTitlesOn(['2026-10-29', '2025-11-29'])).toEqual({
      '2026-10-29': ['Exam eve'],
      '2025-11-29': ['Moving in'],
    });
    expect(pages).toEqual(['?limit=200', '?limit=200&cursor=p2']);
  });
});
