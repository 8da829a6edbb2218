import { SimpleGrid } from '@mantine/core';
import { CommunityCard } from './CommunityCard';
import { InsightsCard } from './InsightsCard';
import { hasPremiumExtras, useRoleLookup } from './useRole';

/** The dashboard's cards beside the sessions: insights for everyone, the community for Premium. */
export function DashboardCards() {
  const { role, pending } = useRoleLookup();
  if (pending) return null;
  const premium = hasPremiumExtras(role);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <InsightsCard premium={premium} />
      {premium ? <CommunityCard /> : null}
    </SimpleGrid>
  );
}
