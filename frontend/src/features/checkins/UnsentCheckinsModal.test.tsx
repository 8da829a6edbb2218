import { createRef } from 'react';
import { render, screen, waitFor, within } from '../../test-utils';
import { UnsentCheckinsModal, type Unsent } from './UnsentCheckinsModal';

function renderModal(unsent: Unsent) {
  const onStay = vi.fn();
  const onDiscard = vi.fn();
  const back = createRef<HTMLButtonElement>();
  const view = render(
    <>
      <button ref={back}>Logout</button>
      <UnsentCheckinsModal unsent={unsent} onStay={onStay} onDiscard={onDiscard} returnFocusTo={back} />
    </>,
  );
  return { ...view, onStay, onDiscard, back };
}

describe('UnsentCheckinsModal', () => {
  // Check-ins kept offline are on their way; one the server refused never will be: the dialog
  // says which it is, and always offers both answers.
  it.each<[string, Unsent, string]>([
    [
      'one not sent yet',
      { waiting: 1, refused: 0 },
      "1 check-in on this device hasn't been sent yet. It will be sent when you're back online. If you log out now, it will be removed from this device and lost.",
    ],
    [
      'three not sent yet',
      { waiting: 3, refused: 0 },
      "3 check-ins on this device haven't been sent yet. They will be sent when you're back online. If you log out now, they will be removed from this device and lost.",
    ],
    [
      'one refused',
      { waiting: 0, refused: 1 },
      "1 check-in on this device couldn't be saved. Your dashboard says why. If you log out now, it will be removed from this device and lost.",
    ],
    [
      'two refused',
      { waiting: 0, refused: 2 },
      "2 check-ins on this device couldn't be saved. Your dashboard says why. If you log out now, they will be removed from this device and lost.",
    ],
    [
      'one of each',
      { waiting: 1, refused: 1 },
      "1 check-in on this device hasn't been sent yet, and 1 couldn't be saved (your dashboard says why). If you log out now, they will be removed from this device and lost.",
    ],
    [
      'two not sent yet and one refused',
      { waiting: 2, refused: 1 },
      "2 check-ins on this device haven't been sent yet, and 1 couldn't be saved (your dashboard says why). If you log out now, they will be removed from this device and lost.",
    ],
  ])('says what would be lost: %s', async (_, unsent, text) => {
    renderModal(unsent);
    const dialog = await screen.findByRole('dialog', { name: 'Log out?' });
    expect(dialog).toHaveTextContent(text);
    expect(within(dialog).getByRole('button', { name: 'Stay signed in' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Log out anyway' })).toBeEnabled();
  });

  it('starts the focus on "Stay signed in" and gives it back where it is told, by the button or by Escape', async () => {
    const { user, onStay, back, onDiscard } = renderModal({ waiting: 0, refused: 1 });
    const stay = await screen.findByRole('button', { name: 'Stay signed in' });
    await waitFor(() => expect(stay).toHaveFocus());

    await user.click(stay);
    expect(onStay).toHaveBeenCalledTimes(1);
    expect(back.current).toHaveFocus();

    stay.focus();
    await user.keyboard('{Escape}');
    expect(onStay).toHaveBeenCalledTimes(2);
    expect(back.current).toHaveFocus();
    expect(onDiscard).not.toHaveBeenCalled();
  });

  it('asks "Log out anyway" of the caller', async () => {
    const { user, onStay, onDiscard } = renderModal({ waiting: 1, refused: 0 });
    await user.click(await screen.findByRole('button', { name: 'Log out anyway' }));
    expect(onDiscard).toHaveBeenCalledTimes(1);
    expect(onStay).not.toHaveBeenCalled();
  });
});
