import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '../auth/AuthProvider';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

interface ProvidersProps {
  children: ReactNode;
  /**
   * A server-state cache for everything inside (the tests' fresh one). The
   * app passes none: each <QueryScope> brings the app's cache when a screen
   * first needs it.
   */
  queryClient?: QueryClient;
  /** 'test' turns off Mantine transitions and portals. */
  env?: 'default' | 'test';
}

/** Theme and auth, shared by the app and the tests. */
export function Providers({ queryClient, children, env = 'default' }: ProvidersProps) {
  const auth = <AuthProvider>{children}</AuthProvider>;
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      env={env}
    >
      {queryClient ? <QueryClientProvider client={queryClient}>{auth}</QueryClientProvider> : auth}
    </MantineProvider>
  );
}
