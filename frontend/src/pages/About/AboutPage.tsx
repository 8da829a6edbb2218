import { Alert, Anchor, Button, Container, List, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { CollapsibleSection } from '../../components/CollapsibleSection/CollapsibleSection';
import { PricingPlans } from './PricingPlans';

/** The four steps of spec §2 (about and pricing). */
const steps = [
  { title: 'Create a profile', text: 'Tell us a little about yourself: your age, what you want to focus on, and any topics you would rather avoid.' },
  { title: 'Register', text: 'Sign up with your e-mail address and confirm it from the link we send you.' },
  { title: 'Subscribe or stay free', text: 'Start on the Free Model, or pick a bundle when you want voice, summaries and more.' },
  { title: 'Chat', text: 'Open a conversation and think out loud. Percolate listens, reflects and asks one question at a time.' },
];

/** /about: marketing and pricing. */
export function AboutPage() {
  const [more, setMore] = useState(false);
  const moreId = useId();
  // A free user who reached for voice mode in the chat lands here (spec §2, Chat).
  const voiceLocked = (useLocation().state as { voiceLocked?: boolean } | null)?.voiceLocked === true;
  return (
    <Container size="md" py="xl">
      <Stack gap={48}>
        <Stack component="section" aria-labelledby="about-title" gap="md" align="center" ta="center">
          <Title order={1} id="about-title">
            About Percolate
          </Title>
          <Text size="lg" maw={640}>
            Percolate is a reflective AI companion for students, young people and overthinkers. It helps your thoughts
            slowly filter into clarity.
          </Text>
          <Button variant="outline" onClick={() => setMore((m) => !m)} aria-expanded={more} aria-controls={moreId}>
            Learn More
          </Button>
        </Stack>

        <Stack id={moreId} hidden={!more} display={more ? undefined : 'none'} gap="lg">
          <Text>
            Percolate offers guided dialogues, reflective journaling prompts and emotional insights. You write (or, on a
            paid plan, speak) what is on your mind; the companion mirrors your words, names the feelings it notices and
            asks an open question. When you end a session, it leaves a short summary so you can look back later.
            Percolate is an AI, not a person or a therapist, and it is not a substitute for professional care.
          </Text>
          <Title order={2}>How to Begin</Title>
          <List type="ordered" spacing="md">
            {steps.map((s) => (
              <List.Item key={s.title}>
                <Text fw={600} span>
                  {s.title}.
                </Text>{' '}
                {s.text}
              </List.Item>
            ))}
          </List>
        </Stack>

        <Stack gap="md">
          <CollapsibleSection title="What a session looks like">
            <Text>
              A session is one conversation. You can pick up where you left off, or start fresh whenever you like. Each
              session has a limit on how much it can hold, and you can end it yourself at any time.
            </Text>
          </CollapsibleSection>
          <CollapsibleSection title="Your privacy">
            <Text>
              Your conversations belong to you. We never sell your data, and you can delete your account whenever you
              want. Read the <Anchor component={Link} to="/privacy">privacy policy</Anchor> for the details.
            </Text>
          </CollapsibleSection>
          <CollapsibleSection title="When things feel heavy">
            <Text>
              If you may be at risk, Percolate points you to people who can help right away. Read how it works on our{' '}
              <Anchor component={Link} to="/safety">safety page</Anchor>.
            </Text>
          </CollapsibleSection>
        </Stack>

        <Stack component="section" aria-labelledby="pricing-title" gap="lg">
          <Title order={2} id="pricing-title" ta="center">
            Pricing
          </Title>
          {voiceLocked ? (
            <Alert icon={<IconLock size={18} />} title="Voice is locked on the Free Model" data-testid="voice-locked">
              Voice conversations are part of the Basic and Premium bundles. Pick one below to talk with Percolate.
            </Alert>
          ) : null}
          <PricingPlans />
        </Stack>

        <Text ta="center">
          Still have questions?{' '}
          <Anchor component={Link} to="/team">
            Contact Us
          </Anchor>
        </Text>
      </Stack>
    </Container>
  );
}
