import { Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useAuth } from '../../auth/AuthContext';
import { firstName, greetingFor, promptOfDay } from './glance';
import classes from './DashboardGreeting.module.css';

/**
 * Above the session grid: a greeting by local time and the journaling prompt of the day, a
 * button that opens a new chat with the prompt as the companion's question.
 */
export function DashboardGreeting({ now = new Date() }: { now?: Date }) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const name = firstName(user?.name);
  const prompt = promptOfDay(now);
  return (
    <Stack gap={6}>
      <Text fz={{ base: 'md', sm: 'lg' }} lh={{ base: 1.3, sm: 'md' }} fw={600} data-testid="greeting">
        {name ? `${greetingFor(now)}, ${name}` : greetingFor(now)}
      </Text>
      <Paper withBorder radius="md" px="sm" py={{ base: 4, sm: 'sm' }} component="section" aria-labelledby="prompt-of-the-day">
        <Title order={2} fz="xs" tt="uppercase" c="dimmed" fw={600} id="prompt-of-the-day">
          Today's prompt
        </Title>
        <UnstyledButton
          className={classes.prompt}
          data-testid="journal-prompt"
          onClick={() => navigate('/chat', { state: { prompt } })}
        >
          <Text size="sm" component="span" lh={{ base: 1.4, sm: 'md' }}>
            {prompt}
          </Text>
          <IconMessageCircle size={18} aria-hidden className={classes.icon} />
          <span className={classes.hint}>: start a chat about it</span>
        </UnstyledButton>
      </Paper>
    </Stack>
  );
}
