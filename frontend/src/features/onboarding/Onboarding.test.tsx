import { http, HttpResponse } from 'msw';
import type { Profile, ProfileUpdate } from '../../api/gen/model';
import { useGetProfile } from '../../api/gen/profile/profile';
import { getGetProfileMockHandler } from '../../api/gen/profile/profile.msw';
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
    expect(screen.getByText(/step 3 of 3/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(screen.queryByTestId('onboarding')).toBeNull());
    expect(updates).toEqual([{ focusAreas: 'exams and sleep' }, { onboarded: true }]);
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
