import type { Emotion } from '../../../../api/gen/model';
import classes from './EmotionChips.module.css';

interface EmotionChipsProps {
  emotions: readonly Emotion[];
  /** Mantine's Badge sizes: 'sm' or the default 'md'. */
  size?: 'sm' | 'md';
  mt?: number;
  /** Names the group for assistive technology where the chips stand on their own. */
  label?: string;
}

/**
 * A session's emotion labels as quiet chips (the look of Mantine's light Badge, from plain
 * elements: a dashboard card shows them). Model output: rendered as text, never as HTML.
 */
export function EmotionChips({ emotions, size = 'md', mt, label }: EmotionChipsProps) {
  return (
    <div className={classes.chips} style={mt === undefined ? undefined : { marginTop: mt }} aria-label={label}>
      {emotions.map((emotion) => (
        <span key={emotion} className={classes.chip} data-size={size}>
          <span className={classes.label}>{emotion}</span>
        </span>
      ))}
    </div>
  );
}
