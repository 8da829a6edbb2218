import { http, HttpResponse } from 'msw';
import type { Profile, ProfileUpdate, ReminderSettings } from '../../api/gen/model';
import { useGetProfile } from '../../api/gen/profile/profile';
import { getGetProfileMockHandler, getUpdateRemindersResponseMock } from '../../api/gen/profile/profile.msw';
import { aProfile, render, screen, server, waitFor } from '../../test-utils';
import { Onboarding } from './Onboarding';

/** Answers GET /api/profile with profile and applies each PUT to it, recording the bodies. */
function profileServer(start: Profile) {
  let profile = start;
  const updates: ProfileUpdate[] = [];
  server.use(
    http.get('*/api/profile', () => HttpResponse.json(profile)),
    http.put('*/api/profile', async ({ request }) => {
      const body = (await request.json()) as ProfileUpdate;
      updates.push(body);
      profile = { ...profile, ...body } as Profile;
      return HttpResponse.json(profile);
    }),
    http.get('*/api/public/safety-resources', () =>
      HttpResponse.json({ countries: [{ code: 'GB', name: 'United Kingdom' }] }),
    ),
  );
  return updates;
}

/** Says when the profile the onboarding reads has arrived. */
function Loaded() {
  return useGetProfile().data ? <p>profile loaded</p> : null;
}

describe('Onboarding', () => {
  it('shows nothing to an account that has done it', async () => {
    server.use(getGetProfileMockHandler(aProfile({ onboarded: true })));
    render(
      <>
        <Onboarding />
        <Loaded />
      </>,
    );
    expect(await screen.findByText('profile loaded')).toBeInTheDocument();
    expect(screen.queryByTestId('onboarding')).toBeNull();
  });

  it('is skipped in one tap, and the account remembers it', async () => {
    const updates = profileServer(aProfile({ onboarded: false }));
    const { user } = render(<Onboarding />);
    expect(await screen.findByRole('heading', { name: 'What would you like to focus on?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Skip all' }));
    await waitFor(() => expect(screen.queryByTestId('onboarding')).toBeNull());
    expect(updates).toEqual([{ onboarded: true }]);
  });

  it('saves each answered step, skips the others, and is done after the last', async () => {
    const updates = profileServer(aProfile({ onboarded: false }));
    const { user } = render(<Onboarding />);
    await user.type(await screen.findByLabelText('Focus areas'), 'exams and sleep');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Anything to steer clear of?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(await screen.findByRole('heading', { name: 'Where are you?' })).toBeInTheDocument();
    expect(screen.getByText(/step 3 of 4/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'A gentle reminder?' })).toBeInTheDocument();
    expect(screen.getByText(/step 4 of 4/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(screen.queryByTestId('onboarding')).toBeNull());
    expect(updates).toEqual([{ focusAreas: 'exams and sleep' }, { onboarded: true }]);
  });

  it('sets a daily e-mail reminder at the chosen time, in the browser\'s time zone', async () => {
    profileServer(aProfile({ onboarded: false }));
    const saved: ReminderSettings[] = [];
    server.use(
      http.put('*/api/profile/reminders', async ({ request }) => {
        const body = (await request.json()) as ReminderSettings;
        saved.push(body);
        return HttpResponse.json(getUpdateRemindersResponseMock({ ...body, nextDue: '2026-12-01T07:30:00Z', devices: [] }));
      }),
    );
    const { user } = render(<Onboarding />);
    await screen.findByRole('heading', { name: 'What would you like to focus on?' });
    for (let i = 0; i < 3; i++) await user.click(screen.getByRole('button', { name: 'Skip' }));
    const time = await screen.findByLabelText('Reminder time');
    await user.clear(time);
    await user.type(time, '07:30');
    await user.click(screen.getByRole('button', { name: 'Remind me by e-mail' }));
    expect(await screen.findByRole('status')).toHaveTextContent(/^Saved\. Your next reminder: /);
    expect(saved).toEqual([
      {
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        time: '07:30',
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        email: true,
        push: false,
      },
    ]);
  });

  it('keeps what was typed and names the field when a save is refused', async () => {
    profileServer(aProfile({ onboarded: false }));
    server.use(
      http.put('*/api/profile', () =>
        HttpResponse.json(
          { code: 'VALIDATION_ERROR', error: 'Bad Request', message: 'Invalid input', details: { focusAreas: 'Too long' } },
          { status: 400 },
        ),
      ),
    );
    const { user } = render(<Onboarding />);
    await user.type(await screen.findByLabelText('Focus areas'), 'exams');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Too long')).toBeInTheDocument();
    expect(screen.getByLabelText('Focus areas')).toHaveValue('exams');
    expect(screen.getByRole('heading', { name: 'What would you like to focus on?' })).toBeInTheDocument();
  });
});
