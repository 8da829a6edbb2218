import { Alert, Anchor, Container, List, Stack, Text, Title } from '@mantine/core';
import { IconHeartHandshake } from '@tabler/icons-react';
import { Link } from 'react-router';

/** /safety: the published crisis protocol (architecture §5). */
export function SafetyPage() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>Safety &amp; Crisis Support</Title>

        <Alert
          color="clay"
          variant="light"
          icon={<IconHeartHandshake aria-hidden />}
          title="If you are in danger right now"
          styles={{ root: { backgroundColor: 'var(--percolate-color-warning-surface)' } }}
        >
          <List spacing={4}>
            <List.Item>
              In the US, call or text <strong>988</strong> to reach the 988 Suicide &amp; Crisis Lifeline.
            </List.Item>
            <List.Item>
              Crisis Text Line: text <strong>HOME</strong> to <strong>741741</strong>.
            </List.Item>
            <List.Item>Call your local emergency number (911 in the US).</List.Item>
            <List.Item>
              In other countries, find a helpline at{' '}
              <Anchor href="https://findahelpline.com" target="_blank" rel="noopener noreferrer">
                findahelpline.com
              </Anchor>
              .
            </List.Item>
          </List>
        </Alert>

        <Stack component="section" aria-labelledby="safety-ai" gap="xs">
          <Title order={2} id="safety-ai" fz="h3">
            Percolate is an AI
          </Title>
          <Text>
            Percolate is an AI, not a person or a therapist. It can help you reflect, but it is not a substitute for
            professional care, diagnosis or treatment. It reminds you of this at the start of every session and again
            during long conversations.
          </Text>
        </Stack>

        <Stack component="section" aria-labelledby="safety-protocol" gap="xs">
          <Title order={2} id="safety-protocol" fz="h3">
            What happens when someone may be at risk
          </Title>
          <Text>
            Every message you type or speak is checked for signs of suicide, self-harm, abuse or immediate danger. This
            check runs on its own, before and after the AI answers, so it works even when the AI is unavailable.
          </Text>
          <List spacing={4}>
            <List.Item>
              If a message shows a possible risk, you get a caring reply with the crisis resources above, whatever the AI
              would have said.
            </List.Item>
            <List.Item>Your next session opens with a gentle check-in.</List.Item>
            <List.Item>
              We count how many times these resources were shared each day, without storing any message content with
              that count, so we can report it as the law asks.
            </List.Item>
          </List>
        </Stack>

        <Stack component="section" aria-labelledby="safety-minors" gap="xs">
          <Title order={2} id="safety-minors" fz="h3">
            Young people
          </Title>
          <Text>
            Companion chatbots may not be suitable for some minors. Percolate does not serve children under 13. If you
            are under 18, it reminds you to take breaks, and we encourage you to talk with a trusted adult about
            anything that weighs on you.
          </Text>
        </Stack>

        <Text>
          Questions about how Percolate keeps you safe?{' '}
          <Anchor component={Link} to="/team#contact">
            Contact us
          </Anchor>
          .
        </Text>
      </Stack>
    </Container>
  );
}
