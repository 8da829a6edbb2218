import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { exportData } from '../../api/gen/profile/profile';
import { isApiError } from '../../api/mutator';
import { browser } from '../../auth/browser';

/**
 * "Download my data": everything of the account (profile, sessions with their
 * messages, summaries and feelings, memories, weekly reports) as one zip, with
 * a readable journal file per session.
 */
export function DownloadDataButton() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setError(null);
    setBusy(true);
    try {
      const blob = await exportData();
      browser.saveFile(blob, 'percolate-export.zip');
    } catch (e) {
      setError(
        (isApiError(e) && e.status === 429 && e.serverMessage) || 'Failed to prepare your data. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        A zip with your profile, every session as a readable journal, what Percolate remembers and your weekly
        reports.
      </Text>
      <div>
        <Button variant="default" leftSection={<IconDownload size={18} />} onClick={() => void download()} loading={busy}>
          Download my data
        </Button>
      </div>
      {error ? (
        <Alert color="clay" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
