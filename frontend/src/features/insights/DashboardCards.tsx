import { SimpleGrid } from '@mantine/core';
import { CommunityCard } from './CommunityCard';
import { InsightsCard } from './InsightsCard';
import { useEntitlements } from '../../auth/useEntitlements';

/** The dashboard's cards beside the sessions: insights for everyone, the community for Premium. */
export function DashboardCards() {
  const { entitlements, pending } = useEntitlements();
  if (pending) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <InsightsCard premium={entitlements.insights} />
      {entitlements.community ? <CommunityCard /> : null}
    </SimpleGrid>
  );
}
