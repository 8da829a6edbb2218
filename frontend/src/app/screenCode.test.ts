import { startEarlyRequests } from '../api/early';
import { SCREEN_CODE_MARK } from './screenCode';

// The screen's modules stand in for themselves: what is tested is when the mark is set.
vi.mock('../api/early', () => ({ startEarlyRequests: vi.fn() }));
vi.mock('../pages/Dashboard/DashboardPage', () => ({}));
vi.mock('../pages/Chat/ChatPage', () => ({}));
vi.mock('../auth/CurrentUser', () => ({}));
vi.mock('./styles.more', () => ({}));
vi.mock('./QueryLayer', () => ({}));

const marks = () => performance.getEntriesByName(SCREEN_CODE_MARK, 'mark');
const aMoment = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Runs earlyStart's module as the page's entry does, at `path`, with the layout's module loaded by `layout`. */
async function startAt(path: string, layout: () => Promise<unknown> = () => Promise.resolve({})) {
  window.history.replaceState(null, '', path);
  vi.resetModules();
  vi.doMock('../layouts/AppLayout/AppLayout', layout);
  await import('./earlyStart');
}

describe("earlyStart's mark that the screen's code is in", () => {
  beforeEach(() => performance.clearMarks(SCREEN_CODE_MARK));

  it("sends the screen's requests and marks when all of its code is in, not before", async () => {
    let release!: () => void;
    await startAt('/dashboard', () => new Promise((resolve) => (release = () => resolve({}))));
    expect(startEarlyRequests).toHaveBeenCalledWith('/dashboard');
    // Every module but the layout has been evaluated: not yet.
    await aMoment();
    expect(marks()).toHaveLength(0);
    release();
    await vi.waitFor(() => expect(marks()).toHaveLength(1));
  });

  it("marks a chat's code too", async () => {
    await startAt('/chat/0b6d2f7e-4c1a-4a53-9d0e-5f3b2a1c9e88');
    await vi.waitFor(() => expect(marks()).toHaveLength(1));
  });

  it('sets no mark when a part failed to load, nor on a page it does not preload', async () => {
    await startAt('/dashboard', () => Promise.reject(new Error('offline')));
    await aMoment();
    expect(marks()).toHaveLength(0);

    await startAt('/about');
    await aMoment();
    expect(marks()).toHaveLength(0);
  });
});
