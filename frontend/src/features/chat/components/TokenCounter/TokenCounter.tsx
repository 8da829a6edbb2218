import { Text } from '@mantine/core';
import classes from './TokenCounter.module.css';

/** From this share of the limit on, the counter draws the eye. */
export const NEAR_LIMIT = 0.8;

function isNearLimit(used: number, limit: number): boolean {
  return limit > 0 && used / limit >= NEAR_LIMIT;
}

/** Spec §2: tokens used against the session's limit; quiet until the limit is near. */
export function TokenCounter({ used, limit }: { used: number; limit: number }) {
  const near = isNearLimit(used, limit);
  return (
    <Text
      component="span"
      size="xs"
      className={classes.counter}
      data-near-limit={near || undefined}
      aria-label="Tokens used"
      title={near ? 'This session is close to its limit' : 'Tokens used in this session'}
    >
      {used} / {limit}
    </Text>
  );
}

