import { ActionIcon, Button, Group, Paper, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import {
  applyUpdate,
  registerServiceWorker,
  serviceWorkerRegistration,
  watchForUpdate,
  type WorkerContainer,
  type WorkerRegistration,
} from './serviceWorker';
import classes from './UpdatePrompt.module.css';

/** How often, at most, coming back to the app asks the server for a newer service worker. */
const CHECK_EVERY_MS = 60 * 60 * 1000;

interface UpdatePromptProps {
  /** The service worker's registration (none where there is no service worker). */
  registration: Promise<WorkerRegistration | undefined>;
  /** navigator.serviceWorker; tests pass their own. */
  container?: WorkerContainer;
  /** Reloads the page; tests pass their own. */
  reload?: () => void;
}

/**
 * "A new version is ready — reload": a small card at the foot of the screen, never a dialog,
 * shown when a new version of the app has installed beside the running one. Reload lets the
 * new version take over and reloads the page; the cross hides the card until the user comes
 * back to the app (the new version then still waits, and takes over when every window of the
 * app is closed).
 */
export function UpdatePrompt({ registration, container, reload }: UpdatePromptProps) {
  const [ready, setReady] = useState<WorkerRegistration | null>(null);
  const [hidden, setHidden] = useState(false);
  const [reloading, setReloading] = useState(false);
  const workers = container ?? (typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined);

  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    let lastCheck = Date.now();
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      setHidden(false);
      if (Date.now() - lastCheck < CHECK_EVERY_MS) return;
      lastCheck = Date.now();
      void registration.then((r) => r?.update()).catch(() => undefined);
    };
    void registration.then((r) => {
      if (!r || !workers || cancelled) return;
      stop = watchForUpdate(r, workers, () => setReady(r));
    });
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      cancelled = true;
      stop?.();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [registration, workers]);

  return (
    <div className={classes.region} aria-live="polite">
      {ready && workers && !hidden && (
        <Paper className={classes.card} shadow="md" radius="md" p="sm" withBorder>
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <Text size="sm">A new version is ready.</Text>
            <Group gap={4} wrap="nowrap">
              <Button
                size="compact-md"
                loading={reloading}
                onClick={() => {
                  setReloading(true);
                  applyUpdate(ready, workers, reload);
                }}
              >
                Reload
              </Button>
              <ActionIcon variant="subtle" size="lg" aria-label="Not now" onClick={() => setHidden(true)}>
                <IconX size={18} aria-hidden />
              </ActionIcon>
            </Group>
          </Group>
        </Paper>
      )}
    </div>
  );
}

/**
 * The prompt on a page the installed app's worker serves: registering again asks the server
 * for a newer worker at once, on any page, signed in or not.
 */
export function InstalledAppUpdates() {
  useEffect(registerServiceWorker, []);
  return <UpdatePrompt registration={serviceWorkerRegistration} />;
}
