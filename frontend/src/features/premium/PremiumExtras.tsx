import { Stack, Title } from '@mantine/core';
import { CommunityInvite } from './CommunityInvite';
import { WeeklyReports } from './WeeklyReports';

interface Props {
  role: string | undefined;
}

/** Premium's extras — the community invite and weekly insight reports — for PREMIUM and ADMIN. */
export function PremiumExtras({ role }: Props) {
  if (role !== 'PREMIUM' && role !== 'ADMIN') return null;
  return (
    <Stack gap="md" component="section" aria-labelledby="premium-extras">
      <Title order={3} id="premium-extras">
        Your weekly insights
      </Title>
      <CommunityInvite />
      <WeeklyReports />
    </Stack>
  );
}
