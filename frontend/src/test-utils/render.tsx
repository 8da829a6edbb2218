import { QueryClient } from '@tanstack/react-query';
import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, type InitialEntry } from 'react-router';
import { Providers } from '../app/Providers';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, gcTime: Infinity },
      mutations: { retry: false },
    },
  });
}

interface Options extends Omit<RenderOptions, 'wrapper'> {
  /** Where the MemoryRouter starts. */
  route?: InitialEntry;
  queryClient?: QueryClient;
}

/**
 * Renders with everything the app has around a screen: the Mantine theme,
 * a fresh React Query cache (no retries), a MemoryRouter and the AuthProvider.
 */
export function renderWithProviders(ui: ReactElement, { route = '/', queryClient, ...options }: Options = {}) {
  const client = queryClient ?? createTestQueryClient();
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <Providers queryClient={client} env="test">
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </Providers>
    );
  }
  return {
    user: userEvent.setup(),
    queryClient: client,
    ...render(ui, { wrapper: Wrapper, ...options }),
  };
}
