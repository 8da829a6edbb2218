import { Button, Modal, Stack, Text } from '@mantine/core';
import { useState, type RefObject } from 'react';
import classes from './UnsentCheckinsModal.module.css';

/** The check-ins kept on this device at logout, by what became of them. */
export interface Unsent {
  /** Not sent yet (offline, or the server out of reach): they go when the connection returns. */
  waiting: number;
  /** Refused by the server for good: the dashboard's card says why, until kept or discarded. */
  refused: number;
}

const checkins = (n: number) => (n === 1 ? '1 check-in' : `${n} check-ins`);

/** What the dialog says: which check-ins would be lost, and why they are still here. */
function unsentText({ waiting, refused }: Unsent): string {
  const one = waiting + refused === 1;
  let what: string;
  if (refused === 0) {
    // As the card says of one: "It will be sent when you're back online."
    what = `${checkins(waiting)} on this device ${waiting === 1 ? "hasn't" : "haven't"} been sent yet. ${
      waiting === 1 ? 'It' : 'They'
    } will be sent when you're back online.`;
  } else if (waiting === 0) {
    what = `${checkins(refused)} on this device couldn't be saved. Your dashboard says why.`;
  } else {
    what = `${checkins(waiting)} on this device ${waiting === 1 ? "hasn't" : "haven't"} been sent yet, and ${refused} couldn't be saved (your dashboard says why).`;
  }
  return `${what} If you log out now, ${one ? 'it' : 'they'} will be removed from this device and lost.`;
}

interface UnsentCheckinsModalProps {
  /** The check-ins kept on this device, unsent; the dialog shows while there are any. */
  unsent: Unsent | null;
  onStay: () => void;
  onDiscard: () => void;
  /** Where the focus goes on "Stay signed in": the control that asked to log out, or the menu's button. */
  returnFocusTo: RefObject<HTMLElement | null>;
}

/**
 * Asked at logout when check-ins kept on this device could not be sent first: logging out
 * removes them from the device (the next person to use it must not inherit them), so they
 * would be lost. Staying signed in keeps them, to be sent when the connection returns, or (one
 * the server refused) to be kept or discarded on the dashboard's card. The focus starts on
 * "Stay signed in", the answer that loses nothing.
 */
export function UnsentCheckinsModal({ unsent, onStay, onDiscard, returnFocusTo }: UnsentCheckinsModalProps) {
  const stay = () => {
    onStay();
    // Mantine would give the focus back to what had it when the dialog opened: the Logout
    // button, which may be in the phone menu, closed by then.
    returnFocusTo.current?.focus();
  };
  // The words stay as they were while the dialog fades out.
  const [shown, setShown] = useState(unsent);
  if (unsent && unsent !== shown) setShown(unsent);
  const opened = !!unsent && unsent.waiting + unsent.refused > 0;
  return (
    <Modal opened={opened} onClose={stay} returnFocus={false} title="Log out?" centered>
      <Stack gap="md">
        <Text>{shown ? unsentText(shown) : null}</Text>
        <div className={classes.actions}>
          <Button variant="default" onClick={stay} data-autofocus>
            Stay signed in
          </Button>
          <Button color="clay" onClick={onDiscard}>
            Log out anyway
          </Button>
        </div>
      </Stack>
    </Modal>
  );
}
