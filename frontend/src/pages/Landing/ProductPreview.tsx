import { Box, Card, Group, Stack, Text } from '@mantine/core';
import { Bubble } from '../../features/chat/components/Bubble/Bubble';
import { OKABE_ITO } from '../../features/insights/palette';
import classes from './ProductPreview.module.css';

/** The sample conversation the hero shows, drawn with the chat's own bubbles. */
export const SAMPLE_CHAT = [
  { role: 'user', text: "Exams start Monday and I keep rereading the same page." },
  { role: 'assistant', text: 'That sounds tiring. What do you think the page is asking of you right now?' },
  { role: 'user', text: "Honestly? I'm scared of letting my family down." },
  { role: 'assistant', text: "That's a lot to carry into an exam room. What would you say to a friend who felt this way?" },
] as const;

/** The sample week the hero's insight card shows: its themes and how often each feeling came up. */
export const SAMPLE_WEEK = {
  conversations: 3,
  themes: ['exams', 'roommate', 'home'],
  feelings: [
    { emotion: 'anxiety', count: 3 },
    { emotion: 'hope', count: 2 },
    { emotion: 'calm', count: 1 },
  ],
} as const;

/** A week's feelings as one thin stacked bar, one colour-blind-safe colour each, with a key in words. */
function FeelingsBar() {
  const { feelings } = SAMPLE_WEEK;
  const label = `Feelings this week: ${feelings.map((f) => `${f.emotion} ${f.count}`).join(', ')}`;
  return (
    <Stack gap={8}>
      <div role="img" aria-label={label} data-testid="feelings-bar" className={classes.bar}>
        {feelings.map((f, i) => (
          <Box key={f.emotion} style={{ flex: f.count, background: OKABE_ITO[i] }} />
        ))}
      </div>
      <Group gap="sm" aria-hidden>
        {feelings.map((f, i) => (
          <Group key={f.emotion} gap={6} wrap="nowrap">
            <span className={classes.swatch} style={{ background: OKABE_ITO[i] }} />
            <Text size="sm">{f.emotion}</Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}

/**
 * The product, shown rather than described: a few turns of a sample conversation in the
 * chat's bubbles and the kind of card a week of them leaves. Plain components, no images,
 * and nothing from the chat page's chunk (no markdown, no virtualiser), so the landing page
 * stays within its budget.
 */
export function ProductPreview() {
  return (
    <div className={classes.preview} data-testid="product-preview">
      <Card
        component="figure"
        aria-labelledby="sample-chat-caption"
        m={0}
        padding="md"
        radius="lg"
        withBorder
        data-testid="chat-excerpt"
      >
        <Stack gap="sm">
          {SAMPLE_CHAT.map((m) => (
            <Bubble key={m.text} role={m.role}>
              {m.text}
            </Bubble>
          ))}
        </Stack>
        <Text component="figcaption" id="sample-chat-caption" size="sm" c="dimmed" mt="sm">
          A sample conversation
        </Text>
      </Card>
      <Card component="section" aria-label="A sample weekly insight" padding="lg" radius="lg" withBorder data-testid="insight-card">
        <Stack gap="md">
          <div>
            <Text fw={600}>This week</Text>
            <Text size="sm" c="dimmed">
              {SAMPLE_WEEK.conversations} conversations finished
            </Text>
          </div>
          <Group component="ul" gap="xs" className={classes.list} aria-label="Themes that returned">
            {SAMPLE_WEEK.themes.map((t) => (
              <li key={t} className={classes.theme}>
                {t}
              </li>
            ))}
          </Group>
          <FeelingsBar />
          <Text size="sm">
            <strong>One idea for the week ahead:</strong> a short walk before you study.
          </Text>
        </Stack>
      </Card>
    </div>
  );
}
