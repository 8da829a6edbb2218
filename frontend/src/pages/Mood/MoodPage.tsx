import { useEffect, useState } from 'react';
import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { MoodKey } from '../../features/mood/ChartFrame';
import { localToday } from '../../features/mood/dates';
import { MonthCalendar } from '../../features/mood/MonthCalendar';
import { FirstCheckIn, Loading, MoodSection, PastDay, UpgradeLine } from '../../features/mood/MoodSections';
import { MoodTrend } from '../../features/mood/MoodTrend';
import { TagPatterns } from '../../features/mood/TagPatterns';
import { type MonthData, useMoodData, useOnThisDay } from '../../features/mood/useMoodData';
import { WeekdayChart } from '../../features/mood/WeekdayChart';
import { YearPixels } from '../../features/mood/YearPixels';

/** "On this day": a month ago and a year ago. */
function OnThisDay({ today }: { today: string }) {
  const past = useOnThisDay(today);
  return (
    <MoodSection id="on-this-day-title" title="On this day">
      <Stack gap="md">
        {past.map((p) => (
          <PastDay key={p.label} {...p} />
        ))}
      </Stack>
    </MoodSection>
  );
}

/**
 * False for the frame that first paints the month, then true: the sections below it are drawn
 * in the task after that paint, so that the calendar is not held up by the charts, the year's
 * days and "On this day". Not a transition: under a loaded CPU a transition, restarted by each
 * answer that comes in meanwhile, could leave them undrawn for seconds.
 */
function useAfterFirstPaint(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setAfter(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  return after;
}

/** The month first; the trend, the days of the week, the tags, the year and "On this day" a frame later. */
function MoodCharts({ today, m, data }: { today: string; m: MonthData; data: ReturnType<typeof useMoodData> }) {
  const rest = useAfterFirstPaint();
  // The year's days, where the tier has them, reach the start of a 31-day month.
  const calendarDays = data.year.status === 'ready' ? data.year.value : m.days;
  return (
    <>
      <MoodSection id="month-title" title="This month">
        <Text size="sm" mb="xs">
          Days you checked in this month: {m.daysThisMonth}
        </Text>
        <MonthCalendar month={today.slice(0, 7)} days={calendarDays} today={today} />
        <MoodKey />
      </MoodSection>
      {rest ? (
        <>
          <MoodSection id="trend-title" title="The last 30 days">
            <MoodTrend end={today} days={m.days} />
          </MoodSection>
          <MoodSection id="weekday-title" title="Your days of the week">
            <WeekdayChart weekdays={m.weekdays} />
          </MoodSection>
          <MoodSection id="tags-title" title="What goes with your better days">
            {data.tags.status === 'locked' ? <UpgradeLine line="The tags that go with your better and harder days come with a paid plan." /> : null}
            {data.tags.status === 'pending' ? <Loading label="Loading your tags..." /> : null}
            {data.tags.status === 'error' ? <Text size="sm">Your tags could not be loaded just now.</Text> : null}
            {data.tags.status === 'ready' ? <TagPatterns tags={data.tags.value} /> : null}
          </MoodSection>
          <MoodSection id="year-title" title="Your year">
            {data.year.status === 'locked' ? <UpgradeLine line="Your whole year, day by day, comes with a paid plan." /> : null}
            {data.year.status === 'pending' ? <Loading label="Loading your year..." /> : null}
            {data.year.status === 'error' ? <Text size="sm">Your year could not be loaded just now.</Text> : null}
            {data.year.status === 'ready' ? <YearPixels end={today} days={data.year.value} /> : null}
          </MoodSection>
          <OnThisDay today={today} />
        </>
      ) : null}
    </>
  );
}

/** /mood: the user's check-ins over time (issue 31 §2). */
export function MoodPage() {
  const today = localToday();
  const data = useMoodData(today);

  let body;
  if (data.month.status === 'pending') body = <Loading label="Loading your moods..." />;
  else if (data.month.status !== 'ready') {
    body = (
      <Alert color="clay" title="Failed to load your moods" role="alert">
        <Button variant="light" color="clay" size="xs" mt="xs" onClick={data.retry}>
          Retry
        </Button>
      </Alert>
    );
  } else if (data.month.value.empty) {
    body = (
      <>
        <FirstCheckIn />
        <OnThisDay today={today} />
      </>
    );
  } else {
    body = <MoodCharts today={today} m={data.month.value} data={data} />;
  }

  return (
    <Container size="sm" py="md">
      <Stack gap="lg">
        <div>
          <Title order={1} fz="h2">
            Your moods
          </Title>
          <Text c="dimmed">How your days have felt, from your check-ins.</Text>
        </div>
        {body}
      </Stack>
    </Container>
  );
}
