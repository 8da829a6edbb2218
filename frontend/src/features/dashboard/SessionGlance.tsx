import { Text } from '@mantine/core';
import type { SessionListItem } from '../../api/gen/model';
import { EmotionChips } from '../chat/components/EmotionChips/EmotionChips';
import { isEndedStatus } from '../chat/sessions';
import { awaitingSummary, summaryFirstLine } from './glance';

/**
 * A card's summary line and emotion chips, for the tiers that include summaries
 * (not USER) and for ended sessions only; 'summarising…' until they arrive.
 * Model output is untrusted: rendered as text, never as HTML.
 */
export function SessionGlance({ session, summaries }: { session: SessionListItem; summaries: boolean }) {
  if (!summaries || !isEndedStatus(session.status)) return null;
  if (awaitingSummary(session)) {
    return (
      <Text size="sm" c="dimmed" fs="italic" role="status">
        summarising…
      </Text>
    );
  }
  const line = summaryFirstLine(session.sessionSummary);
  const emotions = session.sessionEmotions ?? [];
  return (
    <div>
      {line ? (
        <Text size="sm" lineClamp={2} data-testid="summary-line">
          {line}
        </Text>
      ) : null}
      {emotions.length > 0 ? (
        <EmotionChips emotions={emotions} size="sm" mt={6} label="Emotions" />
      ) : null}
    </div>
  );
}
