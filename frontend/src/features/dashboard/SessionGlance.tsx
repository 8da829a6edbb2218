import type { SessionListItem } from '../../api/gen/model';
import { EmotionChips } from '../chat/components/EmotionChips/EmotionChips';
import { isEndedStatus } from '../chat/sessions';
import { awaitingSummary, summaryFirstLine } from './glance';
import classes from './SessionGlance.module.css';

/**
 * A card's summary line and emotion chips, for the tiers that include summaries
 * (not USER) and for ended sessions only; 'summarising…' until they arrive.
 * Model output is untrusted: rendered as text, never as HTML. Plain elements: every card has one.
 */
export function SessionGlance({ session, summaries }: { session: SessionListItem; summaries: boolean }) {
  if (!summaries || !isEndedStatus(session.status)) return null;
  if (awaitingSummary(session)) {
    return (
      <p className={`${classes.text} ${classes.waiting}`} role="status">
        summarising…
      </p>
    );
  }
  const line = summaryFirstLine(session.sessionSummary);
  const emotions = session.sessionEmotions ?? [];
  return (
    <div>
      {line ? (
        <p className={`${classes.text} ${classes.clamp}`} data-testid="summary-line">
          {line}
        </p>
      ) : null}
      {emotions.length > 0 ? (
        <EmotionChips emotions={emotions} size="sm" mt={6} label="Emotions" />
      ) : null}
    </div>
  );
}
