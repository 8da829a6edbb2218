import { Box, Group, Paper, Title, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';

interface CollapsibleSectionProps {
  title: string;
  children: ReactNode;
  /** Open on first render; closed by default. */
  defaultOpen?: boolean;
  /** Heading level of the title. */
  order?: 2 | 3;
}

/**
 * A section whose header is a button that shows and hides its body. The body
 * stays in the document but is `hidden` while closed, so it is skipped by
 * screen readers and find-in-page alike.
 */
export function CollapsibleSection({ title, children, defaultOpen = false, order = 2 }: CollapsibleSectionProps) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  const bodyId = `${id}-body`;
  return (
    <Paper component="section" withBorder radius="md" p={0} aria-labelledby={`${id}-title`}>
      <Title order={order} id={`${id}-title`} fz={order === 2 ? 'h3' : 'h4'} m={0}>
        <UnstyledButton
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls={bodyId}
          w="100%"
          p="md"
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group justify="space-between" wrap="nowrap">
            <span>{title}</span>
            <IconChevronDown
              size={20}
              aria-hidden
              style={{ transform: open ? 'rotate(180deg)' : undefined, flexShrink: 0 }}
            />
          </Group>
        </UnstyledButton>
      </Title>
      <Box id={bodyId} role="region" aria-labelledby={`${id}-title`} hidden={!open} display={open ? undefined : 'none'} px="md" pb="md">
        {children}
      </Box>
    </Paper>
  );
}
