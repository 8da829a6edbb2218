import { http, HttpResponse } from 'msw';
import type { ReminderSettings, Reminders } from '../../api/gen/model';
import { aPushDevice, render, screen, server, someReminders, waitFor, within } from '../../test-utils';
import { deviceName } from './push';
import { RemindersSection } from './RemindersSection';

/** A server holding the reminders; returns its state with the bodies PUT and ids deleted. */
function remindersServer(initial: Reminders) {
  const state = { reminders: initial, puts: [] as ReminderSettings[], deleted: [] as string[] };
  server.use(
    http.get('/api/profile/reminders', () => HttpResponse.json(state.reminders)),
    http.put('/api/profile/reminders', async ({ request }) => {
      const body = (await request.json()) as ReminderSettings;
      state.puts.push(body);
      if (body.time === '') {
        return HttpResponse.json(
          { code: 'VALIDATION_ERROR', error: 'x', message: 'x', details: { time: 'Enter a time as HH:MM, for example 19:30.' } },
          { status: 400 },
        );
      }
      state.reminders = { ...state.reminders, ...body, nextDue: '2026-11-30T14:00:00Z' };
      return HttpResponse.json(state.reminders);
    }),
    http.delete('/api/profile/push-subscriptions/:id', ({ params }) => {
      state.deleted.push(String(params.id));
      state.reminders = { ...state.reminders, devices: state.reminders.devices.filter((d) => d.id !== params.id) };
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

describe('RemindersSection', () => {
  afterEach(() => vi.restoreAllMocks());

  it("saves the chosen days, time and e-mail with the browser's time zone", async () => {
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
      ...new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).resolvedOptions(),
      timeZone: 'Asia/Kolkata',
    });
    const state = remindersServer(someReminders());
    const { user } = render(<RemindersSection />);
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue('Asia/Kolkata');
    await user.click(screen.getByRole('checkbox', { name: 'Mon' }));
    await user.click(screen.getByRole('checkbox', { name: 'Fri' }));
    const time = screen.getByLabelText('Time');
    await user.clear(time);
    await user.type(time, '07:45');
    await user.click(screen.getByRole('switch', { name: 'E-mail' }));
    await user.click(screen.getByRole('button', { name: 'Save reminders' }));
    expect(await screen.findByText(/Saved\. Your next reminder: Monday/)).toBeInTheDocument();
    expect(state.puts).toEqual([{ days: ['mon', 'fri'], time: '07:45', timeZone: 'Asia/Kolkata', email: true, push: false }]);
  });

  it('keeps a saved time zone and names the field the server refused', async () => {
    const state = remindersServer(someReminders({ timeZone: 'Pacific/Chatham', days: ['sun'], email: true }));
    const { user } = render(<RemindersSection />);
    expect(await screen.findByRole('combobox', { name: 'Time zone' })).toHaveValue('Pacific/Chatham');
    await user.clear(screen.getByLabelText('Time'));
    await user.click(screen.getByRole('button', { name: 'Save reminders' }));
    expect(await screen.findByText('Enter a time as HH:MM, for example 19:30.')).toBeInTheDocument();
    expect(state.puts[0]).toMatchObject({ days: ['sun'], timeZone: 'Pacific/Chatham', email: true, time: '' });
  });

  it('lists the devices with push reminders and removes one', async () => {
    const state = remindersServer(
      someReminders({ push: true, devices: [aPushDevice({ id: 'd1', device: 'Chrome on Android' }), aPushDevice({ id: 'd2', device: 'Firefox on Linux' })] }),
    );
    const { user } = render(<RemindersSection />);
    const list = await screen.findByRole('list', { name: 'Devices with push reminders' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove Chrome on Android' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list).getByText(/Firefox on Linux/)).toBeInTheDocument();
    expect(state.deleted).toEqual(['d1']);
  });

  it('says calmly when push is not available in this browser, and leaves it off', async () => {
    remindersServer(someReminders({ timeZone: 'Europe/London' }));
    const { user } = render(<RemindersSection />);
    const push = await screen.findByRole('switch', { name: 'Push on this device' });
    await user.click(push);
    expect(await screen.findByText(/Push reminders are not available in this browser/)).toBeInTheDocument();
    expect(push).not.toBeChecked();
  });

  it('names the device from its user agent', () => {
    expect(deviceName('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1')).toBe(
      'Safari on iOS',
    );
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox on Linux');
  });
});
