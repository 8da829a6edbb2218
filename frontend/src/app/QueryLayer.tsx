import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { createQueryClient } from './queryClient';

/** The app's one cache, shared by every <QueryScope>. */
const appQueryClient = createQueryClient();

export default function QueryLayer({ children }: { children: ReactNode }) {
  // Under a provider already (the tests put their own fresh cache at the root): keep using it.
  if (useContext(QueryClientContext)) return children;
  return <QueryClientProvider client={appQueryClient}>{children}</QueryClientProvider>;
}
