import { Alert, Anchor, Container, List, Select, Stack, Text, Title } from '@mantine/core';
import { IconHeartHandshake } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSafetyResources } from '../../features/safety/useSafetyResources';

/**
 * The emergency number and helplines for where the reader is (the profile's country, else
 * the browser's proposal), with a choice of another country; findahelpline.com always.
 */
function CountryResources() {
  const [chosen, setChosen] = useState<string | null>(null);
  const { country, resources } = useSafetyResources(chosen);
  const data = resources.data;
  const options = (data?.countries ?? []).map((c) => ({ value: c.code, label: c.name }));
  return (
    <Alert
      color="clay"
      variant="light"
      icon={<IconHeartHandshake aria-hidden />}
      title="If you are in danger right now"
      styles={{ root: { backgroundColor: 'var(--percolate-color-warning-surface)' } }}
    >
      <Stack gap="sm">
        <List spacing={4}>
          {data?.covered ? (
            <>
              <List.Item>
                {data.name}: call{' '}
                <Anchor href={`tel:${data.emergency}`} fw={700}>
                  {data.emergency}
                </Anchor>{' '}
                for an ambulance or the police.
              </List.Item>
              {data.lines.map((l) => (
                <List.Item key={l.name}>
                  {l.name}:{' '}
                  {l.callDial ? (
                    <>
                      call{' '}
                      <Anchor href={`tel:${l.callDial}`} fw={700}>
                        {l.call}
                      </Anchor>
                    </>
                  ) : null}
                  {l.callDial && l.textDial ? ' or ' : null}
                  {l.textDial ? (
                    <>
                      text{' '}
                      <Anchor href={`sms:${l.textDial}`} fw={700}>
                        {l.text}
                      </Anchor>
                    </>
                  ) : null}
                  . Free and confidential.{' '}
                  <Anchor href={l.source} target="_blank" rel="noopener noreferrer" fz="xs" c="dimmed">
                    Checked {l.checked}
                  </Anchor>
                </List.Item>
              ))}
            </>
          ) : (
            <List.Item>Call your local emergency number.</List.Item>
          )}
          <List.Item>
            In any country, find a free, confidential helpline at{' '}
            <Anchor href="https://findahelpline.com" target="_blank" rel="noopener noreferrer">
              findahelpline.com
            </Anchor>
            .
          </List.Item>
        </List>
        {options.length > 0 ? (
          <Select
            label="Showing lines for"
            placeholder="Another country"
            data={options}
            value={data?.covered ? (country ?? null) : null}
            onChange={setChosen}
            searchable
            allowDeselect={false}
            maw={320}
          />
        ) : null}
      </Stack>
    </Alert>
  );
}

/** /safety: the published crisis protocol (architecture §5). */
export function SafetyPage() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>Safety &amp; Crisis Support</Title>

        <CountryResources />

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
            Every message you type or speak is checked for signs of suicide, self-harm, abuse, eating-disorder danger or immediate danger. The
            check works in layers:
          </Text>
          <List spacing={4}>
            <List.Item>
              <strong>A check on our own server.</strong> It reads each message together with the one before it, so a
              short answer like &ldquo;yes&rdquo; or &ldquo;tonight&rdquo; is understood in context. It runs on its own,
              before the AI answers, so it works even when the AI is unavailable.
            </List.Item>
            <List.Item>
              <strong>A second opinion from the AI provider.</strong> When this server is connected to an AI model, the
              provider&rsquo;s own safety check looks at the message too, at the same time as the reply is written. It
              can only add care: if it is slow or unavailable, the first check decides alone.
            </List.Item>
          </List>
          <Text>What you get depends on what the check finds:</Text>
          <List spacing={4}>
            <List.Item>
              If a message might mean you are at risk, Percolate asks you directly and gently: &ldquo;are you thinking
              about hurting yourself or ending your life?&rdquo;, together with the crisis resources above.
            </List.Item>
            <List.Item>
              If a message shows a clear risk, or answers that question with yes, you get a caring reply for that kind
              of danger with the lines above for your country, whatever the AI would have said. If someone may already
              have hurt themselves, the reply starts with the emergency number.
            </List.Item>
            <List.Item>
              These replies are written in advance by people, not by the AI, and never repeat your words back to you.
            </List.Item>
            <List.Item>Your next session opens with a gentle check-in.</List.Item>
          </List>
        </Stack>

        <Stack component="section" aria-labelledby="safety-stored" gap="xs">
          <Title order={2} id="safety-stored" fz="h3">
            What is stored, and what is not
          </Title>
          <List spacing={4}>
            <List.Item>
              We count how many times these resources were shared, and how many times Percolate asked the question above,
              each day. These are counts only: no name, no account and no message content is stored with them, so we can
              report them as the law asks.
            </List.Item>
            <List.Item>
              With each message of your conversation we note what the check found, so that your next message can be read
              in context. It stays with your conversation and is deleted with it or with your account.
            </List.Item>
            <List.Item>
              Nobody is alerted and nothing is reported about you: the check only changes the reply you see.
            </List.Item>
          </List>
        </Stack>

        <Stack component="section" aria-labelledby="safety-limits" gap="xs">
          <Title order={2} id="safety-limits" fz="h3">
            The limits
          </Title>
          <Text>
            <strong>Percolate is not an emergency service.</strong> It cannot call anyone, send help or tell anyone where
            you are. No check catches everything: it can miss what is meant, or worry when there is no need. If you or
            someone you know is in danger, please call your local emergency number or one of the lines above now.
          </Text>
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
