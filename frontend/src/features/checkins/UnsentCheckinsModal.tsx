import { Button, Modal, Stack, Text } from '@mantine/core';
import classes from './UnsentCheckinsModal.module.css';

interface UnsentCheckinsModalProps {
  /** How many check-ins are kept on this device, unsent; the dialog shows while there are any. */
  count: number;
  onStay: () => void;
  onDiscard: () => void;
}

/**
 * Asked at logout when check-ins kept on this device could not be sent first: logging out
 * removes them from the device (the next person to use it must not inherit them), so they
 * would be lost. Staying signed in keeps them, to be sent when the connection returns.
 */
export function UnsentCheckinsModal({ count, onStay, onDiscard }: UnsentCheckinsModalProps) {
  const text =
    count === 1
      ? "1 check-in on this device hasn't been saved yet. If you log out now, it will be removed from this device and lost."
      : `${count} check-ins on this device haven't been saved yet. If you log out now, they will be removed from this device and lost.`;
  return (
    <Modal opened={count > 0} onClose={onStay} title="Log out?" centered>
      <Stack gap="md">
        <Text>{text}</Text>
        <div className={classes.actions}>
          <Button variant="default" onClick={onStay}>
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
