import { Button, Group, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { memo, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ClosingFeeling, SessionListItem } from '../../../../api/gen/model';
import { deleteErrorText, formatLastActivity, isActiveStatus } from '../../sessions';
import classes from './SessionCard.module.css';
import { SessionGlance } from '../../../dashboard/SessionGlance';
import { useDeleteSession } from '../../../sessions/mutations';
import { SessionInsights } from './SessionInsights';

/** How the student said they felt when they ended the session (the closing dialog's choices). */
const FEELINGS: Record<ClosingFeeling, string> = {
  better: 'Left feeling better',
  same: 'Left feeling about the same',
  worse: 'Left feeling worse',
};

interface SessionCardProps {
  session: SessionListItem;
  /** The caller's tier includes summaries and emotions (GET /api/auth/me's entitlements). */
  summaries: boolean;
  /** The session the user has just ended: marked, so it is found at a glance. */
  justEnded?: boolean;
}

/**
 * One session on the dashboard (spec §2, session card; §4, session delete). Memoised: the grid
 * renders again whenever its virtualiser measures or scrolls, and a card whose session has not
 * changed need not.
 */
export const SessionCard = memo(function SessionCard({ session, summaries, justEnded = false }: SessionCardProps) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const headingId = useId();
  const title = session.title || 'Untitled Session';

  const remove = useDeleteSession();

  // Plain elements and a CSS module (SessionCard.module.css), not Mantine components: a dashboard
  // renders many cards at once. The delete confirmation, shown on demand, keeps Mantine's.
  return (
    <div
      className={classes.card}
      onClick={() => navigate(`/chat/${session.id}`)}
      data-testid="session-card"
      data-just-ended={justEnded || undefined}
      aria-current={justEnded ? 'true' : undefined}
    >
      <div className={classes.stack}>
        <div className={classes.head}>
          <div className={classes.name}>
            {isActiveStatus(session.status) ? (
              <span className={classes.dot} role="img" aria-label="Active session" title="Active" />
            ) : null}
            <h3 className={classes.heading} id={headingId}>
              <Link to={`/chat/${session.id}`} className={classes.title} onClick={(e) => e.stopPropagation()}>
                {title}
              </Link>
            </h3>
          </div>
          <button
            type="button"
            className={`mantine-focus-auto mantine-active ${classes.delete}`}
            data-tooltip="Delete session"
            aria-label={`Delete session ${title}`}
            onClick={(event) => {
              event.stopPropagation();
              remove.reset();
              setConfirming(true);
            }}
          >
            <IconTrash size={18} aria-hidden />
          </button>
        </div>

        <div className={classes.meta}>
          <p className={classes.caption}>Last Activity</p>
          <p className={classes.text}>{formatLastActivity(session.updatedAt)}</p>
          {session.closingFeeling ? (
            <p className={classes.feeling} data-testid="closing-feeling">
              {FEELINGS[session.closingFeeling]}
            </p>
          ) : null}
        </div>

        <SessionGlance session={session} summaries={summaries} />

        <SessionInsights session={session} summaries={summaries} />
      </div>

      {confirming ? (
        <div
          className={classes.overlay}
          role="alertdialog"
          aria-modal="false"
          aria-labelledby={`${headingId}-delete`}
          onClick={(event) => event.stopPropagation()}
        >
          <Text fw={700} fz="lg" id={`${headingId}-delete`}>
            Delete Session?
          </Text>
          <Text size="sm">
            This action cannot be undone. All messages in this session will be permanently deleted.
          </Text>
          {remove.isPending ? (
            <Text size="sm" c="dimmed" role="status">
              Deleting...
            </Text>
          ) : null}
          {remove.isError ? (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {deleteErrorText(remove.error)}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button color="clay" onClick={() => remove.mutate({ id: session.id })} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </div>
      ) : null}
    </div>
  );
});
