import { useState } from 'react';
import { useGetProfile } from '../../api/gen/profile/profile';
import { useGetSafetyResources } from '../../api/gen/public/public';
import { useAuth } from '../../auth/AuthContext';
import { browserCountry } from './proposeCountry';

/**
 * The crisis resources for where the user is: the profile's country when signed in and set,
 * otherwise the browser's proposal (language and time zone). `override` lets a page show
 * another country's lines without changing the profile.
 */
export function useSafetyResources(override?: string | null) {
  const { status } = useAuth();
  const signedIn = status === 'authenticated';
  const profile = useGetProfile({ query: { enabled: signedIn, retry: false, staleTime: 60_000 } });
  const [proposal] = useState(browserCountry);
  const profileCountry = signedIn ? profile.data?.country : undefined;
  const waitingForProfile = signedIn && profile.isPending;
  const country = override ?? profileCountry ?? proposal ?? undefined;
  const resources = useGetSafetyResources(country ? { country } : undefined, {
    query: { enabled: !waitingForProfile, staleTime: 60 * 60_000 },
  });
  return { country: country ?? null, proposal, fromProfile: !override && !!profileCountry, resources };
}
