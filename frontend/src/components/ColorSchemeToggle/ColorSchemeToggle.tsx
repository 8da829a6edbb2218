import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

/** Switches between the light and dark coffee schemes; the choice is remembered. */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = next === 'dark' ? 'Switch to dark mode' : 'Switch to light mode';

  return (
    <ActionIcon
      variant="subtle"
      size="lg"
      onClick={() => setColorScheme(next)}
      aria-label={label}
      title={label}
    >
      {next === 'dark' ? <IconMoon size={20} stroke={1.6} /> : <IconSun size={20} stroke={1.6} />}
    </ActionIcon>
  );
}
