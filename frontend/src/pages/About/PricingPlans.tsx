import { Alert, Badge, Button, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/AuthContext';
import { useSubscription } from '../../features/billing/useSubscription';

export type PaidPlan = 'BASIC' | 'PREMIUM';

interface Plan {
  name: string;
  price: string;
  period?: string;
  features: string[];
  /** Absent for the free plan. */
  plan?: PaidPlan;
}

/** The three tiers of spec §1 at the prices of spec §9. */
const plans: Plan[] = [
  {
    name: 'Free Model',
    price: 'Free',
    features: ['AI reflection tool', 'Basic journaling prompts', 'A monthly message limit'],
  },
  {
    name: 'Basic Bundle',
    price: '$6.99',
    period: '/month',
    plan: 'BASIC',
    features: ['Higher message limit', 'Voice interaction', 'Session summaries', 'Sentiment insights'],
  },
  {
    name: 'Premium Bundle',
    price: '$16.99',
    period: '/month',
    plan: 'PREMIUM',
    features: ['Higher message limit', 'Higher voice limit', 'Weekly coaching', 'Access to the community chat server'],
  },
];

/** The pricing boxes of the about page. */
export function PricingPlans() {
  const { status } = useAuth();
  const signedIn = status === 'authenticated';
  const { subscribed, subscribe, manage, error, busy } = useSubscription();

  function action(p: Plan): ReactNode {
    if (!p.plan) {
      return (
        <Button component={Link} to={signedIn ? '/chat' : '/register'} variant="outline" fullWidth>
          {signedIn ? 'Start Chatting' : 'Get Started'}
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
        <Button fullWidth variant="light" onClick={() => void manage()} loading={busy === 'portal'}>
          Manage Subscription
        </Button>
      );
    }
    const plan = p.plan;
    return (
      <Button fullWidth onClick={() => void subscribe(plan)} loading={busy === plan} disabled={busy !== null}>
        Subscribe
      </Button>
    );
  }

  return (
    <Stack gap="md">
      {error ? (
        <Alert color="clay" role="alert">
          {error}
        </Alert>
      ) : null}
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
                  {p.features.map((f) => (
                    <List.Item key={f}>{f}</List.Item>
                  ))}
                </List>
              </Stack>
              {action(p)}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
