import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import type { Memory, Profile } from '../../api/gen/model';
import { aMemory, aProfile, render, screen, server, waitFor, within } from '../../test-utils';
import { MemoryPanel } from './MemoryPanel';

/** A server holding memories in a list; returns it and the profile bodies PUT. */
function memoryServer(initial: Memory[]) {
  const state = { memories: [...initial], profilePuts: [] as unknown[] };
  server.use(
    http.get('/api/profile/memories', () => HttpResponse.json(state.memories)),
    http.put('/api/profile/memories/:id', async ({ params, request }) => {
      const { text } = (await request.json()) as { text: string };
      const m = state.memories.find((x) => x.id === params.id);
      if (!m) return HttpResponse.json({ code: 'NOT_FOUND', error: 'Not found', message: 'Not found' }, { status: 404 });
      if (text.trim() === '') {
        return HttpResponse.json(
          { code: 'VALIDATION_ERROR', error: 'x', message: 'x', details: { text: 'Please write what Percolate should remember.' } },
          { status: 400 },
        );
      }
      m.text = text.trim();
      return HttpResponse.json(m);
    }),
    http.delete('/api/profile/memories/:id', ({ params }) => {
      state.memories = state.memories.filter((x) => x.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.delete('/api/profile/memories', () => {
      state.memories = [];
      return new HttpResponse(null, { status: 204 });
    }),
    http.put('/api/profile', async ({ request }) => {
      const body = (await request.json()) as Partial<Profile>;
      state.profilePuts.push(body);
      return HttpResponse.json(aProfile(body));
    }),
  );
  return state;
}

function Harness({ initial }: { initial: Profile }) {
  const [profile, setProfile] = useState(initial);
  return <MemoryPanel profile={profile} onProfileSaved={setProfile} />;
}

// Typing tests are slow on a shared machine.
vi.setConfig({ testTimeout: 30_000 });

describe('MemoryPanel', () => {
  it('explains memory when nothing is remembered yet', async () => {
    memoryServer([]);
    render(<Harness initial={aProfile()} />);

    expect(screen.getByRole('heading', { name: 'What Percolate remembers' })).toBeInTheDocument();
    expect(await screen.findByText(/Nothing yet\. When you end a session/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Forget everything' })).not.toBeInTheDocument();
  });

  it('lists the memories and edits one in place', async () => {
    const state = memoryServer([aMemory({ id: 'm1', text: 'Has a statistics midterm on Tuesday' }), aMemory({ id: 'm2', text: 'Has a friend called Maya' })]);
    const { user } = render(<Harness initial={aProfile()} />);

    const list = await screen.findByRole('list', { name: 'Memories' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Has a statistics midterm on Tuesday',
      'Has a friend called Maya',
    ]);

    await user.click(screen.getByRole('button', { name: 'Edit “Has a statistics midterm on Tuesday”' }));
    const box = screen.getByLabelText('Edit memory');
    await user.clear(box);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.type(box, 'Has a statistics midterm on Thursday');
    expect(screen.getByText('36/200 characters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Has a statistics midterm on Thursday')).toBeInTheDocument();
    expect(screen.queryByLabelText('Edit memory')).not.toBeInTheDocument();
    expect(state.memories[0].text).toBe('Has a statistics midterm on Thursday');
  });

  it('shows the field error the server gives and stays editing', async () => {
    memoryServer([aMemory({ id: 'm1', text: 'Has a friend called Maya' })]);
    const { user } = render(<Harness initial={aProfile()} />);

    await user.click(await screen.findByRole('button', { name: 'Edit “Has a friend called Maya”' }));
    const box = screen.getByLabelText('Edit memory');
    await user.clear(box);
    await user.type(box, '   ');
    // Whitespace only: the button stays disabled, nothing is sent.
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('deletes one memory', async () => {
    const state = memoryServer([aMemory({ id: 'm1', text: 'Has a statistics midterm on Tuesday' }), aMemory({ id: 'm2', text: 'Has a friend called Maya' })]);
    const { user } = render(<Harness initial={aProfile()} />);

    await user.click(await screen.findByRole('button', { name: 'Delete “Has a friend called Maya”' }));

    await waitFor(() => expect(screen.queryByText('Has a friend called Maya')).not.toBeInTheDocument());
    expect(screen.getByText('Has a statistics midterm on Tuesday')).toBeInTheDocument();
    expect(state.memories.map((m) => m.id)).toEqual(['m1']);
  });

  it('forgets everything only after the confirmation', async () => {
    const state = memoryServer([aMemory({ id: 'm1', text: 'Has a friend called Maya' })]);
    const { user } = render(<Harness initial={aProfile()} />);

    await user.click(await screen.findByRole('button', { name: 'Forget everything' }));
    const dialog = await screen.findByRole('dialog', { name: 'Forget everything?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(state.memories).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Forget everything' }));
    const again = await screen.findByRole('dialog', { name: 'Forget everything?' });
    await user.click(within(again).getByRole('button', { name: 'Forget everything' }));

    expect(await screen.findByText(/Nothing yet\./)).toBeInTheDocument();
    expect(state.memories).toHaveLength(0);
  });

  it('turns memory off through the profile', async () => {
    const state = memoryServer([]);
    const { user } = render(<Harness initial={aProfile()} />);

    const toggle = screen.getByRole('switch', { name: /Remember things between sessions/ });
    expect(toggle).toBeChecked();
    await user.click(toggle);

    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(state.profilePuts).toEqual([{ memoryEnabled: false }]);
    expect(screen.getByText(/Memory is off: nothing new is remembered/)).toBeInTheDocument();
  });

  it('says when the memories cannot load', async () => {
    memoryServer([]);
    server.use(http.get('/api/profile/memories', () => HttpResponse.json({ code: 'X' }, { status: 500 })));
    render(<Harness initial={aProfile()} />);

    expect(await screen.findByText('Failed to load what Percolate remembers')).toBeInTheDocument();
  });
});
