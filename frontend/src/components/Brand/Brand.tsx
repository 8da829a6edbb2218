import { Group, Text, UnstyledButton } from '@mantine/core';
import { IconCoffee } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The Percolate word mark; always links home. */
export function Brand() {
  return (
    <UnstyledButton component={Link} to="/" aria-label="Percolate home" display="flex" style={{ alignItems: 'center' }}>
      <Group gap={6} wrap="nowrap">
        <IconCoffee size={26} stroke={1.6} color="var(--mantine-primary-color-filled)" aria-hidden />
        <Text ff="heading" fw={600} fz="xl" c="var(--mantine-color-text)">
          Percolate
        </Text>
      </Group>
    </UnstyledButton>
  );
}
