import { SimpleGrid } from '@mantine/core';
import { CommunityCard } from './CommunityCard';
import { InsightsCard } from './InsightsCard';
import { MoodCard } from '../mood/MoodCard';
import { useEntitlements } from '../../auth/useEntitlements';

/** The dashboard's cards beside the sessions: moods and insights for everyone, the community for Premium. */
export function DashboardCards() {
  const { entitlements, pending } = useEntitlements();
  if (pending) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <MoodCard />
      <InsightsCard premium={entitlements.insights} />
      {entitlements.community ? <CommunityCard /> : null}
    </SimpleGrid>
  );
}
