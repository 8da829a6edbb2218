import { Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLifebuoy } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { CrisisLinks } from '../MessageList/CrisisLinks';
import classes from './PinnedSupport.module.css';

interface PinnedSupportProps {
  /** The kind of danger the lines were pinned for (SafetyPinned.category). */
  category: string;
}

/**
 * The support lines, pinned above the composer for the rest of a session once a reply has
 * asked about risk or given the crisis reply (issue 32). It folds to one line and unfolds,
 * but is never removed: nothing here closes it.
 */
export function PinnedSupport({ category }: PinnedSupportProps) {
  const [open, setOpen] = useState(true);
  const id = useId();
  const bodyId = `${id}-body`;
  return (
    <section className={classes.card} aria-labelledby={`${id}-title`} data-category={category}>
      <UnstyledButton
        id={`${id}-title`}
        className={classes.toggle}
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={bodyId}
      >
        <IconLifebuoy size={18} aria-hidden className={classes.icon} />
        <span className={classes.title}>Support lines</span>
        <IconChevronDown size={18} aria-hidden className={classes.chevron} data-open={open || undefined} />
      </UnstyledButton>
      <div id={bodyId} className={classes.body} hidden={!open}>
        <Text size="sm">
          Free, confidential, any time. If you are in danger right now, call your local emergency number.
        </Text>
        <CrisisLinks />
      </div>
    </section>
  );
}
