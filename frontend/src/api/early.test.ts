import { http, HttpResponse } from 'msw';
import { setSession } from '../auth/storage';
import { aUser } from '../test-utils/fixtures';
import { server } from '../test-utils/server';
import { authorizedFetch } from './authorizedFetch';
import { earlyRequestsFor, startEarlyRequests } from './early';

/** Answers GETs of `paths`, counting the requests and the tokens they carried. */
function counting(paths: string[], status = 200) {
  const seen: Record<string, (string | null)[]> = {};
  server.use(
    ...paths.map((path) =>
      http.get(path, ({ request }) => {
        (seen[path] ??= []).push(request.headers.get('Authorization'));
        return status === 200 ? HttpResponse.json({ path }) : HttpResponse.json({ code: 'UNAUTHORIZED' }, { status });
      }),
    ),
  );
  return seen;
}

const ME = '/api/auth/me';
const PROFILE = '/api/profile';
const SESSIONS = '/api/chat/sessions';

describe('early requests', () => {
  it('names the first requests of each signed-in screen, and none for the public pages', () => {
    expect(earlyRequestsFor('/dashboard')).toEqual([ME, PROFILE, SESSIONS]);
    const id = '0b6d2f7e-4c1a-4a53-9d0e-5f3b2a1c9e88';
    expect(earlyRequestsFor(`/chat/${id}`)).toEqual([ME, PROFILE, `/api/chat/sessions/${id}`]);
    expect(earlyRequestsFor('/mood')).toEqual([ME, PROFILE]);
    expect(earlyRequestsFor('/')).toEqual([]);
    expect(earlyRequestsFor('/login')).toEqual([]);
  });

  it('sends nothing without a stored access token', async () => {
    const seen = counting([ME, PROFILE, SESSIONS]);
    startEarlyRequests('/profile');
    await Promise.resolve();
    expect(seen).toEqual({});
  });

  it("answers the screen's own request from the early one, without asking the server again", async () => {
    setSession({ accessToken: 'early-token', refreshToken: 'r', user: aUser() });
    const seen = counting([ME, PROFILE, SESSIONS]);
    startEarlyRequests('/profile');
    // Two callers while the answer is on its way share it; each reads its own copy.
    const [a, b] = await Promise.all([authorizedFetch(ME), authorizedFetch(ME)]);
    expect(await a.json()).toEqual({ path: ME });
    expect(await b.json()).toEqual({ path: ME });
    expect(await (await authorizedFetch(PROFILE)).json()).toEqual({ path: PROFILE });
    expect(seen).toEqual({ [ME]: ['Bearer early-token'], [PROFILE]: ['Bearer early-token'] });
    // Once it has been used, a later request goes to the server as always.
    await authorizedFetch(PROFILE);
    expect(seen[PROFILE]).toHaveLength(2);
  });

  it('leaves a refused early answer alone: the request is made again, with its refresh', async () => {
    setSession({ accessToken: 'expired', refreshToken: 'r', user: aUser() });
    const seen = counting([ME, PROFILE], 401);
    let refreshed = 0;
    server.use(
      http.post('/api/auth/refresh', () => {
        refreshed++;
        return HttpResponse.json({ accessToken: 'fresh', refreshToken: 'r2', user: aUser() });
      }),
    );
    startEarlyRequests('/profile');
    const answer = await authorizedFetch(PROFILE);
    expect(answer.status).toBe(401); // the handler refuses every token; what matters is who asked
    expect(refreshed).toBe(1);
    expect(seen[PROFILE]).toEqual(['Bearer expired', 'Bearer expired', 'Bearer fresh']);
  });

  it('is not used for a request made with another token', async () => {
    setSession({ accessToken: 'first', refreshToken: 'r', user: aUser() });
    const seen = counting([ME, PROFILE]);
    startEarlyRequests('/insights');
    setSession({ accessToken: 'second', refreshToken: 'r', user: aUser() });
    await authorizedFetch(ME);
    expect(seen[ME]).toEqual(['Bearer first', 'Bearer second']);
  });
});
