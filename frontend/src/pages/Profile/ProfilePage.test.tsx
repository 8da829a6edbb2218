import { delay, http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import type { Profile } from '../../api/gen/model';
import { getGetRemindersResponseMock } from '../../api/gen/profile/profile.msw';
import { browser } from '../../auth/browser';
import { ProtectedRoute } from '../../auth/ProtectedRoute/ProtectedRoute';
import { getAccessToken, getRefreshToken, getUser, setSession } from '../../auth/storage';
import { getCreateCheckinResponseMock } from '../../api/gen/checkins/checkins.msw';
import { answerCheckins } from '../../features/checkins/fixtures';
import { keep, kept } from '../../features/checkins/offlineQueue';
import { aProfile, aSignIn, aUser, gate, render, screen, server, validationError, waitFor, within } from '../../test-utils';
import { ProfilePage } from './ProfilePage';
import { parseAge, tierLabel } from './profileFields';
import { resourcesFor } from '../../features/safety/fixtures';

const proposal = vi.hoisted(() => ({ country: 'GB' as string | null }));
vi.mock('../../features/safety/proposeCountry', () => ({ browserCountry: () => proposal.country, proposeCountry: () => proposal.country }));

/** The shared profile fixture, with a filled-in profile. */
const filledProfile = (overrides: Partial<Profile> = {}): Profile =>
  aProfile({ name: 'Ada Lovelace', age: 36, focusAreas: 'Exams', primaryConcerns: 'Sleep', ...overrides });

/** A signed-in user with a fixed id: the device keeps her check-ins under it. */
const ada = aUser({ id: 'a0000000-0000-4000-8000-000000000001' });

function Where() {
  return <p>at {useLocation().pathname}</p>;
}

function renderProfile(profile: Profile | (() => Response) = filledProfile(), me = aUser()) {
  setSession(aSignIn({ user: me }));
  server.use(
    http.get('/api/auth/me', () => HttpResponse.json(me)),
    http.get('/api/profile', typeof profile === 'function' ? profile : () => HttpResponse.json(profile)),
    http.get('/api/profile/memories', () => HttpResponse.json([])),
    http.get('/api/profile/reminders', () =>
      HttpResponse.json(getGetRemindersResponseMock({ days: [], time: '19:00', timeZone: '', email: false, push: false, nextDue: null, devices: [] })),
    ),
    http.get('/api/public/safety-resources', ({ request }) =>
      HttpResponse.json(resourcesFor(new URL(request.url).searchParams.get('country'))),
    ),
  );
  return render(
    <Routes>
      <Route
        path="/profile"
        element={
          <ProtectedRoute>
            <ProfilePage />
          </ProtectedRoute>
        }
      />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route: '/profile' },
  );
}

type User = ReturnType<typeof renderProfile>['user'];

/** Answers PUT /api/profile by echoing the change onto the profile; returns the bodies sent. */
function acceptUpdates(base: Profile = filledProfile()) {
  const bodies: unknown[] = [];
  server.use(
    http.put('/api/profile', async ({ request }) => {
      const body = (await request.json()) as Partial<Profile>;
      bodies.push(body);
      await delay(30);
      return HttpResponse.json({ ...base, ...body });
    }),
  );
  return bodies;
}

// Form tests type a lot and some wait for real redirect delays; the machine is shared.
vi.setConfig({ testTimeout: 30_000 });

describe('ProfilePage', () => {
  it('shows the loading state, then the read-only identity and the FREE tier with Upgrade', async () => {
    const { user } = renderProfile();

    expect(await screen.findByText('Loading your profile...')).toBeInTheDocument();
    const name = await screen.findByLabelText('Full Name');
    expect(name).toHaveValue('Ada Lovelace');
    expect(name).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Email Address')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email Address')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Tier')).toHaveValue('FREE');
    expect(screen.getByLabelText('Tier')).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Manage' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Upgrade' }));
    expect(screen.getByText('at /about')).toBeInTheDocument();
  });

  it('shows other roles as they are', () => {
    expect(tierLabel('USER')).toBe('FREE');
    expect(tierLabel('BASIC')).toBe('BASIC');
    expect(tierLabel('PREMIUM')).toBe('PREMIUM');
    expect(tierLabel('ADMIN')).toBe('ADMIN');
  });

  it('says when the profile cannot load, and Retry reloads the page', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    const { user } = renderProfile(() => HttpResponse.json({ code: 'INTERNAL' }, { status: 500 }));

    expect(await screen.findByText('Failed to load profile information')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(reload).toHaveBeenCalledTimes(1);
  });

  describe('Manage', () => {
    function fakeTab() {
      return { opener: {}, location: { href: '' }, close: vi.fn() };
    }

    it('opens a blank tab first and points it at the portal url', async () => {
      const tab = fakeTab();
      const open = vi.spyOn(browser, 'openBlankTab').mockReturnValue(tab as unknown as Window);
      server.use(
        http.post('/api/subscription/portal', () => HttpResponse.json({ url: 'https://billing.example/session/1' })),
      );
      const { user } = renderProfile(filledProfile({ role: 'PREMIUM' }));

      expect(await screen.findByLabelText('Tier')).toHaveValue('PREMIUM');
      expect(screen.queryByRole('button', { name: 'Upgrade' })).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Manage' }));

      expect(open).toHaveBeenCalledTimes(1);
      await waitFor(() => expect(tab.location.href).toBe('https://billing.example/session/1'));
      expect(tab.opener).toBeNull();
      expect(tab.close).not.toHaveBeenCalled();
    });

    it('alerts and closes the blank tab when the portal cannot open', async () => {
      const tab = fakeTab();
      vi.spyOn(browser, 'openBlankTab').mockReturnValue(tab as unknown as Window);
      const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
      server.use(
        http.post('/api/subscription/portal', () =>
          HttpResponse.json({ code: 'SERVICE_UNAVAILABLE', error: 'Payments are off' }, { status: 503 }),
        ),
      );
      const { user } = renderProfile(filledProfile({ role: 'BASIC' }));

      await user.click(await screen.findByRole('button', { name: 'Manage' }));

      await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to open Stripe portal. Please try again.'));
      expect(tab.close).toHaveBeenCalled();
    });
  });

  describe('inline fields', () => {
    async function field(label: string) {
      return screen.findByRole('group', { name: label });
    }

    it('edits Age: display → editing → saving (spinner) → display, sending only age as an integer', async () => {
      const bodies = acceptUpdates();
      const { user } = renderProfile();
      const age = await field('Age');
      expect(within(age).getByText('36')).toBeInTheDocument();

      await user.click(within(age).getByRole('button', { name: 'Edit' }));
      const input = within(age).getByRole('spinbutton');
      expect(input).toHaveValue(36);
      expect(within(age).queryByText(/characters$/)).not.toBeInTheDocument();
      await user.clear(input);
      await user.type(input, '41');
      await user.click(within(age).getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(within(age).getByRole('button', { name: 'Save' })).toHaveAttribute('data-loading'));
      expect(await within(age).findByRole('button', { name: 'Edit' })).toBeInTheDocument();
      expect(within(age).getByText('41')).toBeInTheDocument();
      expect(bodies).toEqual([{ age: 41 }]);
    });

    it('sends an emptied Age as null', async () => {
      const bodies = acceptUpdates();
      const { user } = renderProfile();
      const age = await field('Age');

      await user.click(within(age).getByRole('button', { name: 'Edit' }));
      await user.clear(within(age).getByRole('spinbutton'));
      await user.click(within(age).getByRole('button', { name: 'Save' }));

      expect(await within(age).findByText('Not set')).toBeInTheDocument();
      expect(bodies).toEqual([{ age: null }]);
    });

    it('parses age as an integer', () => {
      expect(parseAge('')).toBeNull();
      expect(parseAge('  ')).toBeNull();
      expect(parseAge('17')).toBe(17);
      expect(parseAge('17.9')).toBe(17);
    });

    it.each([
      ['Focus Areas', 'focusAreas', 'Exams'],
      ['Primary Concerns', 'primaryConcerns', 'Sleep'],
      ['Sensitive Topics', 'sensitiveTopics', ''],
    ] as const)('edits %s with a 250-character counter, sending only that field', async (label, key, initial) => {
      const bodies = acceptUpdates();
      const { user } = renderProfile();
      const group = await field(label);

      await user.click(within(group).getByRole('button', { name: 'Edit' }));
      const input = within(group).getByRole('textbox');
      expect(input).toHaveValue(initial);
      expect(within(group).getByText(`${initial.length}/250 characters`)).toBeInTheDocument();
      await user.clear(input);
      await user.type(input, 'Friendships');
      expect(within(group).getByText('11/250 characters')).toBeInTheDocument();
      await user.click(within(group).getByRole('button', { name: 'Save' }));

      expect(await within(group).findByText('Friendships')).toBeInTheDocument();
      expect(bodies).toEqual([{ [key]: 'Friendships' }]);
    });

    it('caps the text at 250 characters', async () => {
      acceptUpdates();
      const { user } = renderProfile(filledProfile({ focusAreas: '' }));
      const group = await field('Focus Areas');

      await user.click(within(group).getByRole('button', { name: 'Edit' }));
      await user.click(within(group).getByRole('textbox'));
      await user.paste('x'.repeat(260));

      expect(within(group).getByRole('textbox')).toHaveValue('x'.repeat(250));
      expect(within(group).getByText('250/250 characters')).toBeInTheDocument();
    });

    it("stays editing with 'Failed to save changes' when saving fails", async () => {
      server.use(http.put('/api/profile', () => HttpResponse.json({ code: 'INTERNAL' }, { status: 500 })));
      const { user } = renderProfile();
      const group = await field('Primary Concerns');

      await user.click(within(group).getByRole('button', { name: 'Edit' }));
      await user.type(within(group).getByRole('textbox'), ' and stress');
      await user.click(within(group).getByRole('button', { name: 'Save' }));

      expect(await within(group).findByRole('alert')).toHaveTextContent('Failed to save changes');
      expect(within(group).getByRole('textbox')).toHaveValue('Sleep and stress');
      expect(within(group).getByRole('button', { name: 'Save' })).toBeInTheDocument();
    });

    it("shows the server's field message when it refuses a value", async () => {
      server.use(
        http.put('/api/profile', () =>
          validationError('Invalid input', { age: 'Percolate is for people 13 and over.' }),
        ),
      );
      const { user } = renderProfile();
      const age = await field('Age');

      await user.click(within(age).getByRole('button', { name: 'Edit' }));
      await user.clear(within(age).getByRole('spinbutton'));
      await user.type(within(age).getByRole('spinbutton'), '12');
      await user.click(within(age).getByRole('button', { name: 'Save' }));

      expect(await within(age).findByRole('alert')).toHaveTextContent('Percolate is for people 13 and over.');
      expect(within(age).getByRole('spinbutton')).toHaveValue(12);
    });
  });

  describe('Change Password', () => {
    async function openAndFill(user: User) {
      await user.click(await screen.findByRole('button', { name: 'Change Password' }));
      const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
      await user.type(within(dialog).getByLabelText('Current Password'), 'old secret');
      await user.type(within(dialog).getByLabelText('New Password'), 'new secret phrase');
      await user.type(within(dialog).getByLabelText('Confirm New Password'), 'new secret phrase');
      return dialog;
    }

    it("changes the password, showing 'Changing...' and then success with the form cleared", async () => {
      const held = gate();
      let body: unknown;
      server.use(
        http.put('/api/profile/password', async ({ request }) => {
          body = await request.json();
          await held.wait;
          return HttpResponse.json({ message: 'Password changed.' });
        }),
      );
      const { user } = renderProfile();
      const dialog = await openAndFill(user);

      await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));

      expect(await within(dialog).findByRole('button', { name: 'Changing...' })).toBeDisabled();
      held.open();
      expect(await within(dialog).findByText('Password changed successfully!')).toBeInTheDocument();
      expect(body).toEqual({
        currentPassword: 'old secret',
        newPassword: 'new secret phrase',
        confirmNewPassword: 'new secret phrase',
      });
      expect(within(dialog).getByLabelText('Current Password')).toHaveValue('');
      expect(within(dialog).getByLabelText('New Password')).toHaveValue('');
      expect(within(dialog).getByLabelText('Confirm New Password')).toHaveValue('');
    });

    it.each([
      [
        "the server's message field",
        () => HttpResponse.json({ code: 'VALIDATION_ERROR', error: 'e', message: 'Current password is incorrect' }, { status: 400 }),
        'Current password is incorrect',
      ],
      ['the text body', () => HttpResponse.text('Too many attempts', { status: 429 }), 'Too many attempts'],
      ['the fallback', () => new HttpResponse(null, { status: 500 }), 'Password change failed. Please try again.'],
      ['the fallback without a response', () => HttpResponse.error(), 'Password change failed. Please try again.'],
    ])('shows %s on failure', async (_name, answer, expected) => {
      server.use(http.put('/api/profile/password', answer));
      const { user } = renderProfile();
      const dialog = await openAndFill(user);

      await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));

      expect(await within(dialog).findByRole('alert')).toHaveTextContent(expected);
      expect(within(dialog).getByLabelText('Current Password')).toHaveValue('old secret');
    });
  });

  describe('Delete Account', () => {
    it('warns, and Cancel closes without a call', async () => {
      const { user } = renderProfile();
      await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Account' });

      expect(within(dialog).getByText('Are you absolutely sure?')).toBeInTheDocument();
      expect(within(dialog).getByText(/chat sessions, messages and profile data will be permanently lost/)).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it("calls DELETE /api/profile ('Deleting...'), then signs out locally and goes to /", async () => {
      const held = gate();
      let deleted = 0;
      server.use(
        http.delete('/api/profile', async () => {
          deleted += 1;
          await held.wait;
          return new HttpResponse(null, { status: 204 });
        }),
      );
      // A check-in kept on this device, unsent, goes with the account.
      keep(ada.id, { mood: 2, localDate: '2026-11-29', clientId: 'e0000000-0000-4000-8000-00000000000e' });
      const { user } = renderProfile(filledProfile(), ada);
      await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Account' });

      await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));

      expect(await within(dialog).findByRole('button', { name: 'Deleting...' })).toBeDisabled();
      held.open();
      expect(await screen.findByText('at /')).toBeInTheDocument();
      expect(deleted).toBe(1);
      expect(kept(ada.id)).toEqual([]);
      expect(getAccessToken()).toBeNull();
      expect(getRefreshToken()).toBeNull();
      expect(getUser()).toBeNull();
    });

    it('stays open with the error when deletion fails', async () => {
      server.use(http.delete('/api/profile', () => new HttpResponse(null, { status: 500 })));
      const { user } = renderProfile();
      await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Account' });

      await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));

      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to delete account. Please try again.');
      expect(getAccessToken()).toBe('access-1');
    });
  });

  describe('Logout', () => {
    const keptOne = { mood: 2 as const, localDate: '2026-11-29', clientId: 'f0000000-0000-4000-8000-00000000000f' };

    /** Answers POST /api/checkins as `answer` says, recording each body, and the logout. */
    function checkins(answer: () => Response) {
      server.use(http.post('/api/auth/logout', () => new HttpResponse(null, { status: 204 })));
      return answerCheckins(answer);
    }

    it('sends check-ins kept on this device first, when it can, then logs out without asking', async () => {
      const created = getCreateCheckinResponseMock({ safety: undefined, lowStreak: undefined });
      const posted = checkins(() => HttpResponse.json(created, { status: 201 }));
      const { user } = renderProfile(filledProfile(), ada);
      await screen.findByRole('button', { name: 'Logout' });
      keep(ada.id, keptOne);

      await user.click(screen.getByRole('button', { name: 'Logout' }));

      expect(await screen.findByText('at /')).toBeInTheDocument();
      expect(posted).toEqual([keptOne]);
      expect(kept(ada.id)).toEqual([]);
      expect(getAccessToken()).toBeNull();
    });

    it('asks when kept check-ins cannot be sent: Stay signed in keeps them; Log out anyway removes them from the device', async () => {
      const posted = checkins(() => HttpResponse.error());
      const { user } = renderProfile(filledProfile(), ada);
      await screen.findByRole('button', { name: 'Logout' });
      keep(ada.id, keptOne);

      await user.click(screen.getByRole('button', { name: 'Logout' }));
      let dialog = await screen.findByRole('dialog', { name: 'Log out?' });
      expect(dialog).toHaveTextContent(
        "1 check-in on this device hasn't been sent yet. It will be sent when you're back online. If you log out now, it will be removed from this device and lost.",
      );
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Stay signed in' })).toHaveFocus());
      await user.click(within(dialog).getByRole('button', { name: 'Stay signed in' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(kept(ada.id)).toEqual([keptOne].map((data) => ({ data })));
      expect(getAccessToken()).toBe('access-1');
      expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled();
      expect(screen.getByRole('button', { name: 'Logout' })).toHaveFocus();

      await user.click(screen.getByRole('button', { name: 'Logout' }));
      dialog = await screen.findByRole('dialog', { name: 'Log out?' });
      await user.click(within(dialog).getByRole('button', { name: 'Log out anyway' }));

      expect(await screen.findByText('at /')).toBeInTheDocument();
      expect(kept(ada.id)).toEqual([]);
      expect(getAccessToken()).toBeNull();
      expect(posted).toHaveLength(2);
    });

    it('says a check-in the server refused could not be saved (not that it is unsent), and still offers both answers', async () => {
      const posted = checkins(() => validationError('Invalid', { localDate: 'Must be a date in the last 7 days on your device.' }));
      const { user } = renderProfile(filledProfile(), ada);
      await screen.findByRole('button', { name: 'Logout' });
      keep(ada.id, keptOne);

      await user.click(screen.getByRole('button', { name: 'Logout' }));
      const dialog = await screen.findByRole('dialog', { name: 'Log out?' });
      expect(dialog).toHaveTextContent(
        "1 check-in on this device couldn't be saved. Your dashboard says why. If you log out now, it will be removed from this device and lost.",
      );
      expect(posted).toEqual([keptOne]);
      expect(kept(ada.id)).toEqual([{ data: keptOne, refused: 'Must be a date in the last 7 days on your device.' }]);
      await user.click(within(dialog).getByRole('button', { name: 'Log out anyway' }));

      expect(await screen.findByText('at /')).toBeInTheDocument();
      expect(kept(ada.id)).toEqual([]);
      expect(getAccessToken()).toBeNull();
      // Refused for good, it was not sent again.
      expect(posted).toHaveLength(1);
    });

    it("shows 'Logging out...', signs out and goes to /", async () => {
      const held = gate();
      let auth: string | null = null;
      server.use(
        http.post('/api/auth/logout', async ({ request }) => {
          auth = request.headers.get('Authorization');
          await held.wait;
          return new HttpResponse(null, { status: 204 });
        }),
      );
      const { user } = renderProfile();

      await user.click(await screen.findByRole('button', { name: 'Logout' }));

      expect(await screen.findByRole('button', { name: 'Logging out...' })).toBeDisabled();
      held.open();
      expect(await screen.findByText('at /')).toBeInTheDocument();
      expect(auth).toBe('Bearer access-1');
      expect(getAccessToken()).toBeNull();
      expect(getUser()).toBeNull();
    });

    it("says 'Failed to logout' when the server call fails, with the stored session already cleared", async () => {
      server.use(http.post('/api/auth/logout', () => HttpResponse.error()));
      const { user } = renderProfile();

      await user.click(await screen.findByRole('button', { name: 'Logout' }));

      expect(await screen.findByRole('alert')).toHaveTextContent('Failed to logout');
      expect(getAccessToken()).toBeNull();
      expect(getRefreshToken()).toBeNull();
      expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled();
    });
  });

  describe('country', () => {
    it("proposes the browser's country when unset, and saves it on request", async () => {
      proposal.country = 'GB';
      const bodies = acceptUpdates();
      const { user } = renderProfile();
      const use = await screen.findByRole('button', { name: 'Use United Kingdom' });
      expect(screen.getByText('Your browser suggests United Kingdom.')).toBeInTheDocument();
      await user.click(use);
      await waitFor(() => expect(bodies).toEqual([{ country: 'GB' }]));
      // The saved country shows once the save has answered, not when the request leaves.
      await waitFor(() => expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('United Kingdom'));
      expect(screen.queryByRole('button', { name: 'Use United Kingdom' })).toBeNull();
    });

    it('shows the saved country and changes it from the list', async () => {
      proposal.country = 'GB';
      const bodies = acceptUpdates(filledProfile({ country: 'GB' }));
      const { user } = renderProfile(filledProfile({ country: 'GB' }));
      const field = await screen.findByRole('combobox', { name: 'Country' });
      await waitFor(() => expect(field).toHaveValue('United Kingdom'));
      expect(screen.queryByText(/Your browser suggests/)).toBeNull();
      await user.click(field);
      await user.click(await screen.findByRole('option', { name: 'United States' }));
      await waitFor(() => expect(bodies).toEqual([{ country: 'US' }]));
      await waitFor(() => expect(field).toHaveValue('United States'));
    });
  });
});
