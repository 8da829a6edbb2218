import { Box, Button, Card, Container, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBook2, IconMessageCircle2, IconChartDots3 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CoffeeBeans } from '../../components/CoffeeBeans/CoffeeBeans';
import { Reveal } from '../../components/Reveal/Reveal';
import { content } from '../../content/content';
import classes from './LandingPage.module.css';
import { ProductPreview } from './ProductPreview';

/** Features animate in at 20% visibility, testimonials at 10% (spec §2). */
export const FEATURE_THRESHOLD = 0.2;
export const TESTIMONIAL_THRESHOLD = 0.1;

const features = [
  {
    icon: IconMessageCircle2,
    title: 'Guided Dialogues',
    text: 'Talk things through with a calm AI companion that listens, reflects your words back and asks one good question at a time.',
  },
  {
    icon: IconBook2,
    title: 'Reflective Journaling',
    text: 'Gentle prompts help you put a busy mind on the page, so you can look at your thoughts instead of circling them.',
  },
  {
    icon: IconChartDots3,
    title: 'Emotional Insights',
    text: 'Each finished session leaves a short summary and the feelings it noticed, so you can see patterns over time.',
  },
];

export function LandingPage() {
  const { testimonials, sample } = content;
  return (
    <Box pos="relative">
      <CoffeeBeans />
      <Container size="md" py="xl" pos="relative" style={{ zIndex: 1 }}>
        <Stack gap={64}>
          <Stack component="section" aria-labelledby="hero-title" gap="md" align="center" ta="center" py="xl">
            <Title order={1} id="hero-title">
              Find Clarity with Percolate
            </Title>
            <Text size="lg" maw={620}>
              A quiet place to think out loud. Talk things through, write them down, and let your thoughts settle.
            </Text>
            <Button component={Link} to="/chat" size="lg">
              Try the AI
            </Button>
            <Box mt="lg" w="100%">
              <ProductPreview />
            </Box>
          </Stack>

          <Stack component="section" aria-labelledby="features-title" gap="lg">
            <Title order={2} id="features-title" ta="center">
              Core Features
            </Title>
            <div className={classes.grid}>
              {features.map(({ icon: Icon, title, text }) => (
                <Reveal key={title} threshold={FEATURE_THRESHOLD}>
                  <Card component="article" padding="lg" radius="md" withBorder h="100%">
                    <Stack gap="sm">
                      <ThemeIcon size={44} radius="xl" variant="light" aria-hidden>
                        <Icon size={24} stroke={1.6} />
                      </ThemeIcon>
                      <Title order={3}>{title}</Title>
                      <Text>{text}</Text>
                    </Stack>
                  </Card>
                </Reveal>
              ))}
            </div>
          </Stack>

          <Stack component="section" aria-labelledby="testimonials-title" gap="lg">
            <Title order={2} id="testimonials-title" ta="center">
              What People Say
            </Title>
            {sample ? (
              <Text size="sm" c="dimmed" ta="center">
                Sample testimonials, shown until real ones are added.
              </Text>
            ) : null}
            <div className={classes.grid}>
              {testimonials.slice(0, 3).map((t) => (
                <Reveal key={t.name + t.quote} threshold={TESTIMONIAL_THRESHOLD}>
                  <Card component="figure" padding="lg" radius="md" withBorder h="100%" m={0} data-testid="testimonial">
                    <Text component="blockquote" m={0} fs="italic">
                      “{t.quote}”
                    </Text>
                    <Text component="figcaption" size="sm" mt="sm">
                      <strong>{t.name}</strong>
                      <Text span c="dimmed" size="sm">
                        {' '}
                        · {t.detail}
                      </Text>
                    </Text>
                  </Card>
                </Reveal>
              ))}
            </div>
          </Stack>

          <Stack component="section" aria-labelledby="join-title" gap="md" align="center" ta="center">
            <Title order={2} id="join-title">
              Ready to slow down and think?
            </Title>
            <Text>Create a free account and start your first conversation today.</Text>
            <Button component={Link} to="/register" size="md">
              Join Percolate
            </Button>
          </Stack>

          <Card component="section" aria-labelledby="contact-title" padding="xl" radius="lg" withBorder>
            <Group justify="space-between" align="center" gap="md">
              <Stack gap={4}>
                <Title order={2} id="contact-title">
                  Questions or ideas?
                </Title>
                <Text>We read every message and we&apos;d love to hear from you.</Text>
              </Stack>
              <Button component={Link} to="/team#contact" variant="outline" size="md">
                Contact Us
              </Button>
            </Group>
          </Card>
        </Stack>
      </Container>
    </Box>
  );
}
