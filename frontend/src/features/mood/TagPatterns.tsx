import { memo } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import { capitalise } from '../checkins/moods';
import { formatMean } from './moodScale';
import type { TagPattern } from './types';

interface Props {
  tags: TagPattern[];
}

const round = (n: number) => formatMean(Math.round(n * 10) / 10);
const checkIns = (n: number) => `${n} ${n === 1 ? 'check-in' : 'check-ins'}`;

/** "Exercise: 4.1 with it (12 check-ins), 3.2 without (20 check-ins)" */
function line(t: TagPattern): string {
  return `${capitalise(t.tag)}: ${round(t.withMood)} with it (${checkIns(t.withCount)}), ${round(t.withoutMood)} without (${checkIns(
    t.withoutCount,
  )})`;
}

/**
 * The tags that go with better and with harder days, most telling first, each with its mean mood
 * with and without it and how many check-ins each side holds. Words and numbers only: nothing
 * here rests on colour.
 */
export const TagPatterns = memo(function TagPatterns({ tags }: Props) {
  const gap = (t: TagPattern) => t.withMood - t.withoutMood;
  const better = tags.filter((t) => gap(t) > 0).sort((a, b) => gap(b) - gap(a));
  const harder = tags.filter((t) => gap(t) < 0).sort((a, b) => gap(a) - gap(b));
  if (better.length === 0 && harder.length === 0) {
    return (
      <Text size="sm">
        A tag shows here once it has at least 5 check-ins with it and 5 without. Keep adding tags to your check-ins.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {[
        { title: 'With better days', list: better },
        { title: 'With harder days', list: harder },
      ].map(({ title, list }) =>
        list.length > 0 ? (
          <div key={title}>
            <Title order={3} fz="h5">
              {title}
            </Title>
            <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
              {list.map((t) => (
                <li key={t.tag}>
                  <Text size="sm">{line(t)}</Text>
                </li>
              ))}
            </ul>
          </div>
        ) : null,
      )}
    </Stack>
  );
});
