import { act, render, screen } from '../test-utils';
import type { WorkerContainer, WorkerRegistration } from './serviceWorker';
import { UpdatePrompt } from './UpdatePrompt';

/** A service worker as the page sees it: a state, change events and messages it was sent. */
class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  messages: unknown[] = [];
  postMessage(message: unknown) {
    this.messages.push(message);
  }
  install() {
    this.state = 'installed';
    this.dispatchEvent(new Event('statechange'));
  }
}

/** A registration whose new version the test installs, and the page's container of workers. */
function workers({ controlled = true, waiting = null as FakeWorker | null } = {}) {
  const registration = Object.assign(new EventTarget(), {
    waiting: waiting as unknown as ServiceWorker | null,
    installing: null as ServiceWorker | null,
    update: vi.fn(async () => undefined),
  }) satisfies WorkerRegistration;
  const container = Object.assign(new EventTarget(), {
    controller: controlled ? ({} as ServiceWorker) : null,
  }) satisfies WorkerContainer;
  /** A new version downloads and installs beside the running one. */
  const newVersion = () => {
    const worker = new FakeWorker();
    registration.installing = worker as unknown as ServiceWorker;
    registration.dispatchEvent(new Event('updatefound'));
    worker.install();
    registration.installing = null;
    registration.waiting = worker as unknown as ServiceWorker;
    return worker;
  };
  return { registration, container, newVersion };
}

const prompt = () => screen.queryByText('A new version is ready.');

/** Renders the prompt and waits until it watches the registration. */
async function renderPrompt(
  registration: WorkerRegistration | undefined,
  container: WorkerContainer | undefined,
  reload = vi.fn(),
) {
  const registered = Promise.resolve(registration);
  const rendered = render(<UpdatePrompt registration={registered} container={container} reload={reload} />);
  await act(() => registered);
  return { ...rendered, reload };
}

test('a new version that installs while the app runs offers a reload, which lets it take over first', async () => {
  const { registration, container, newVersion } = workers();
  const { user, reload } = await renderPrompt(registration, container);
  // Nothing is offered while the running version is the newest.
  expect(prompt()).not.toBeInTheDocument();

  let worker!: FakeWorker;
  act(() => {
    worker = newVersion();
  });
  expect(await screen.findByText('A new version is ready.')).toBeVisible();
  // Not a dialog: the page around it stays usable, and screen readers hear it politely.
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(prompt()?.closest('[aria-live="polite"]')).not.toBeNull();

  await user.click(screen.getByRole('button', { name: 'Reload' }));
  expect(worker.messages).toEqual([{ type: 'SKIP_WAITING' }]);
  // The page reloads only once the new version is in control, so it loads the new shell.
  expect(reload).not.toHaveBeenCalled();
  act(() => void container.dispatchEvent(new Event('controllerchange')));
  expect(reload).toHaveBeenCalledTimes(1);
});

test('a version already waiting when the page opens is offered at once', async () => {
  const waiting = new FakeWorker();
  waiting.state = 'installed';
  const { registration, container } = workers({ waiting });
  await renderPrompt(registration, container);
  expect(await screen.findByText('A new version is ready.')).toBeVisible();
});

test('the first install is no update: nothing is offered', async () => {
  const { registration, container, newVersion } = workers({ controlled: false });
  await renderPrompt(registration, container);
  act(() => void newVersion());
  expect(prompt()).not.toBeInTheDocument();
});

test('without a service worker there is no prompt', async () => {
  await renderPrompt(undefined, undefined);
  expect(prompt()).not.toBeInTheDocument();
});

test('another tab already let the new version in: Reload only reloads', async () => {
  const { registration, container, newVersion } = workers();
  const { user, reload } = await renderPrompt(registration, container);
  let worker!: FakeWorker;
  act(() => {
    worker = newVersion();
  });
  await screen.findByText('A new version is ready.');
  registration.waiting = null; // it activated for the other tab
  await user.click(screen.getByRole('button', { name: 'Reload' }));
  expect(worker.messages).toEqual([]);
  expect(reload).toHaveBeenCalledTimes(1);
});

test('"Not now" hides the prompt until the user comes back to the app', async () => {
  const { registration, container, newVersion } = workers();
  const { user } = await renderPrompt(registration, container);
  act(() => void newVersion());
  await screen.findByText('A new version is ready.');
  await user.click(screen.getByRole('button', { name: 'Not now' }));
  expect(prompt()).not.toBeInTheDocument();

  act(() => void document.dispatchEvent(new Event('visibilitychange')));
  expect(await screen.findByText('A new version is ready.')).toBeVisible();
});
