import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { getGetCurrentUserMockHandler } from '../../api/gen/auth/auth.msw';
import type { SessionListItem } from '../../api/gen/model';
import { nextLink } from '../../features/dashboard/sessionPages';
import { aProfile, aSession, aUser, render, screen, server, waitFor } from '../../test-utils';
import { getGetProfileMockHandler } from '../../api/gen/profile/profile.msw';
import { getListCheckinsMockHandler } from '../../api/gen/checkins/checkins.msw';

// The dashboard asks whether the onboarding was done (these users have done it) and for today's
// check-ins (none yet).
beforeEach(() => server.use(getGetProfileMockHandler(aProfile()), getListCheckinsMockHandler([])));
import { DashboardPage } from './DashboardPage';

const all: SessionListItem[] = Array.from({ length: 45 }, (_, i) =>
  aSession({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    title: `Walk ${i}`,
    lastMessage: `note ${i}`,
    updatedAt: new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - i * 60_000).toISOString(),
    status: 'ENDED',
  }),
);

/** Pages of 20 with a Link to the next, the way the server answers. */
function paged(list: SessionListItem[], path: string, request: Request) {
  const url = new URL(request.url);
  const start = Number(url.searchParams.get('cursor') ?? '0');
  const page = list.slice(start, start + 20);
  const headers: Record<string, string> = {};
  if (start + 20 < list.length) {
    const next = new URLSearchParams(url.searchParams);
    next.set('cursor', String(start + 20));
    headers.Link = `<${path}?${next.toString()}>; rel="next"`;
  }
  return HttpResponse.json(page, { headers });
}

function renderDashboard() {
  return render(
    <Routes>
      <Route path="/dashboard" element={<DashboardPage />} />
    </Routes>,
    { route: '/dashboard' },
  );
}

describe('nextLink', () => {
  it('reads the rel="next" target of a Link header', () => {
    expect(nextLink('</api/chat/sessions?cursor=abc>; rel="next"')).toBe('/api/chat/sessions?cursor=abc');
    expect(nextLink('</a>; rel="prev", </b>; rel="next"')).toBe('/b');
    expect(nextLink('</a>; rel="prev"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });
});

describe('DashboardPage paging', () => {
  // jsdom lays nothing out (every card is 0 px high): a tall window keeps every loaded row in view
  // of the virtualised grid, so what is asserted is which pages were loaded.
  const innerHeight = window.innerHeight;
  beforeEach(() => {
    window.innerHeight = 100_000;
  });
  afterEach(() => {
    window.innerHeight = innerHeight;
  });

  it('shows the first page, then the next from the keyboard on "Load more", until there is no more', async () => {
    server.use(getGetCurrentUserMockHandler(aUser({ role: 'USER' })));
    const cursors: (string | null)[] = [];
    server.use(
      http.get('*/api/chat/sessions', ({ request }) => {
        cursors.push(new URL(request.url).searchParams.get('cursor'));
        return paged(all, '/api/chat/sessions', request);
      }),
    );
    const { user } = renderDashboard();
    await screen.findByRole('link', { name: 'Walk 0' });
    expect(screen.queryByRole('link', { name: 'Walk 20' })).not.toBeInTheDocument();

    const more = await screen.findByRole('button', { name: 'Load more' });
    more.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('link', { name: 'Walk 20' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Walk 40' })).not.toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Walk 44' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument());
    expect(cursors).toEqual([null, '20', '40']);
  });

  it('searches on the server once typing pauses, and pages the results', async () => {
    server.use(getGetCurrentUserMockHandler(aUser({ role: 'USER' })));
    const queries: string[] = [];
    server.use(
      http.get('*/api/chat/sessions', ({ request }) => paged(all, '/api/chat/sessions', request)),
      http.get('*/api/profile/sessions', ({ request }) => {
        const q = new URL(request.url).searchParams.get('query') ?? '';
        queries.push(q);
        return paged(
          all.filter((s) => s.title.toLowerCase().includes(q.toLowerCase())),
          '/api/profile/sessions',
          request,
        );
      }),
    );
    const { user } = renderDashboard();
    await screen.findByRole('link', { name: 'Walk 0' });
    await user.click(screen.getByPlaceholderText('Search by session name or date'));
    await user.paste('walk 4');
    // Walk 40 is on no loaded page: only the server's search finds it.
    expect(await screen.findByRole('link', { name: 'Walk 40' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Walk 0' })).not.toBeInTheDocument();
    expect(queries).toEqual(['walk 4']);
  });
});
