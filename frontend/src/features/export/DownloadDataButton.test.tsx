import { delay, http, HttpResponse } from 'msw';
import { browser } from '../../auth/browser';
import { render, screen, server, waitFor } from '../../test-utils';
import { DownloadDataButton } from './DownloadDataButton';

describe('DownloadDataButton', () => {
  it('downloads the zip under its name', async () => {
    const save = vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    server.use(
      http.get('/api/profile/export', async () => {
        await delay(30);
        return HttpResponse.arrayBuffer(new Uint8Array([0x50, 0x4b, 3, 4]).buffer, {
          headers: { 'Content-Type': 'application/zip' },
        });
      }),
    );
    const { user } = render(<DownloadDataButton />);

    await user.click(screen.getByRole('button', { name: 'Download my data' }));

    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const [blob, name] = save.mock.calls[0];
    expect(name).toBe('percolate-export.zip');
    expect(blob.size).toBe(4);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the server's message when exports are limited", async () => {
    const save = vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    const message = "You've downloaded your data a few times already. Please try again in a little while.";
    server.use(
      http.get('/api/profile/export', () =>
        HttpResponse.json({ code: 'RATE_LIMITED', error: message, message }, { status: 429, headers: { 'Retry-After': '60' } }),
      ),
    );
    const { user } = render(<DownloadDataButton />);

    await user.click(screen.getByRole('button', { name: 'Download my data' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(save).not.toHaveBeenCalled();
  });
});
