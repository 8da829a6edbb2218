import type { SessionListItem } from '../../api/gen/model';
import { awaitingSummary } from './glance';
import classes from './SessionGlance.module.css';

/**
 * 'summarising…' on the card of an ended session while its summary is being written, for the
 * tiers that include summaries (not USER). Once written, the summary and the emotions are shown
 * once each, in the card's 'Session Summary' and 'Session Emotions' dropdowns (issue 36: they
 * were on the card and again in the dropdowns). Plain elements: every card has one.
 */
export function SessionGlance({ session, summaries }: { session: SessionListItem; summaries: boolean }) {
  if (!summaries || !awaitingSummary(session)) return null;
  return (
    <p className={`${classes.text} ${classes.waiting}`} role="status">
      summarising…
    </p>
  );
}
