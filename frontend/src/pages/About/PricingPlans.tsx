import { Alert, Badge, Button, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Entitlements, Plans } from '../../api/gen/model';
import { useGetClientConfig } from '../../api/gen/public/public';
import { useAuth } from '../../auth/AuthContext';
import { useSubscription } from '../../features/billing/useSubscription';

export type PaidPlan = 'BASIC' | 'PREMIUM';

interface Plan {
  name: string;
  price: string;
  period?: string;
  /** Absent for the free plan. */
  plan?: PaidPlan;
  /** The plan's row of the server's entitlement table. */
  row: keyof Plans;
}

/** The three tiers of spec §1 at the prices of spec §9. */
const plans: Plan[] = [
  { name: 'Free Model', price: 'Free', row: 'free' },
  { name: 'Basic Bundle', price: '$6.99', period: '/month', plan: 'BASIC', row: 'basic' },
  { name: 'Premium Bundle', price: '$16.99', period: '/month', plan: 'PREMIUM', row: 'premium' },
];

/**
 * What a plan includes, in spec §1's words, from the entitlement table the server enforces
 * (issue 36: no copy that disagrees with it). Before the table arrives, the words alone.
 */
function planFeatures(row: keyof Plans, e: Entitlements | undefined): string[] {
  const perDay = (n: number | undefined, what: string) => (n ? `: ${n} ${what} a day` : '');
  if (row === 'free') {
    return ['AI reflection tool', 'Basic journaling prompts', `A message limit${perDay(e?.messagesPerDay, 'messages')}`];
  }
  const out = [`Higher message limit${perDay(e?.messagesPerDay, 'messages')}`];
  if (row === 'premium') out.push(`Higher voice limit${perDay(e?.voicePerDay, 'voice messages')}`);
  else if (!e || e.voice) out.push(`Voice interaction${perDay(e?.voicePerDay, 'voice messages')}`);
  if (!e || e.summaries) out.push('Session summaries and sentiment insights (the emotions of each session)');
  if (row === 'premium' && (!e || e.insights)) out.push('Weekly coaching: weekly insight reports');
  if (row === 'premium' && (!e || e.community)) out.push('Access to the community chat server');
  return out;
}

/** Said in place of the upgrade buttons' promise when this server takes no payments (issue 36). */
export const UPGRADES_UNAVAILABLE = "Upgrades aren't available on this server. You can keep using the free plan.";

/** The pricing boxes of the about page. */
export function PricingPlans() {
  const { status } = useAuth();
  const signedIn = status === 'authenticated';
  const { subscribed, subscribe, manage, error, busy } = useSubscription();
  // Only a server that says it takes no payments turns the buttons off: while the answer is
  // on its way, or if it never comes, the buttons stay and a refusal shows beside them.
  const config = useGetClientConfig({ query: { staleTime: 5 * 60 * 1000 } });
  const unavailable = config.data?.payments === false;
  // The box whose button was pressed last, so a failure shows beside it, not off-screen.
  const [pressed, setPressed] = useState<PaidPlan | null>(null);

  function action(p: Plan): ReactNode {
    if (!p.plan) {
      return (
        <Button component={Link} to={signedIn ? '/chat' : '/register'} variant="outline" fullWidth>
          {signedIn ? 'Start Chatting' : 'Get Started'}
        </Button>
      );
    }
    const plan = p.plan;
    if (unavailable) {
      return (
        <Button fullWidth disabled variant={subscribed && signedIn ? 'light' : 'filled'} aria-describedby={`upgrades-unavailable-${plan}`}>
          {subscribed && signedIn ? 'Manage Subscription' : 'Subscribe'}
        </Button>
      );
    }
    if (!signedIn) {
      return (
        <Button component={Link} to="/login" fullWidth>
          Subscribe
        </Button>
      );
    }
    if (subscribed) {
      return (
        <Button
          fullWidth
          variant="light"
          onClick={() => {
            setPressed(plan);
            void manage();
          }}
          loading={busy === 'portal'}
        >
          Manage Subscription
        </Button>
      );
    }
    return (
      <Button
        fullWidth
        onClick={() => {
          setPressed(plan);
          void subscribe(plan);
        }}
        loading={busy === plan}
        disabled={busy !== null}
      >
        Subscribe
      </Button>
    );
  }

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {plans.map((p) => (
          <Card key={p.name} component="article" withBorder radius="md" padding="lg" aria-labelledby={`plan-${p.name}`} data-testid="pricing-box">
            <Stack gap="md" h="100%" justify="space-between">
              <Stack gap="sm">
                <Title order={3} id={`plan-${p.name}`}>
                  {p.name}
                </Title>
                <Text>
                  <Text span fz={32} fw={600} ff="heading">
                    {p.price}
                  </Text>
                  {p.period ? <Text span c="dimmed">{p.period}</Text> : null}
                </Text>
                {p.plan === 'PREMIUM' ? (
                  <Badge variant="light" w="fit-content">
                    Most support
                  </Badge>
                ) : null}
                <List spacing={6}>
                  {planFeatures(p.row, config.data?.plans?.[p.row]).map((f) => (
                    <List.Item key={f}>{f}</List.Item>
                  ))}
                </List>
              </Stack>
              <Stack gap="xs">
                {action(p)}
                {unavailable && p.plan ? (
                  <Group gap={6} wrap="nowrap" align="flex-start" id={`upgrades-unavailable-${p.plan}`} data-testid="upgrades-unavailable">
                    <IconInfoCircle size={18} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} />
                    <Text size="sm" c="dimmed">
                      {UPGRADES_UNAVAILABLE}
                    </Text>
                  </Group>
                ) : null}
                {error && p.plan && p.plan === pressed ? (
                  <Alert color="clay" role="alert" ref={(el) => el?.scrollIntoView?.({ block: 'nearest' })}>
                    {error}
                  </Alert>
                ) : null}
              </Stack>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
