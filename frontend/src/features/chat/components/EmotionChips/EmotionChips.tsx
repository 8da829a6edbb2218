import { Badge, Group, type MantineSize } from '@mantine/core';
import type { Emotion } from '../../../../api/gen/model';

interface EmotionChipsProps {
  emotions: readonly Emotion[];
  size?: MantineSize;
  mt?: number;
  /** Names the group for assistive technology where the chips stand on their own. */
  label?: string;
}

/** A session's emotion labels as quiet chips. Model output: rendered as text, never as HTML. */
export function EmotionChips({ emotions, size, mt, label }: EmotionChipsProps) {
  return (
    <Group gap={6} mt={mt} aria-label={label}>
      {emotions.map((emotion) => (
        <Badge key={emotion} variant="light" tt="none" size={size}>
          {emotion}
        </Badge>
      ))}
    </Group>
  );
}
