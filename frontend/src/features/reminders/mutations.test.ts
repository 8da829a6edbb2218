import { QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { PushDevice, Reminders } from '../../api/gen/model';
import { getGetRemindersQueryKey } from '../../api/gen/profile/profile';
import { getGetRemindersResponseMock } from '../../api/gen/profile/profile.msw';
import { act, createTestQueryClient, renderHook, server, waitFor } from '../../test-utils';
import { useAddDevice } from './mutations';

const laptop: PushDevice = { id: 'd-1', device: 'Chrome on Linux', createdAt: '2026-11-20T10:00:00Z' };
const phone: PushDevice = { id: 'd-2', device: 'Safari on iPhone', createdAt: '2026-11-21T10:00:00Z' };

describe('useAddDevice', () => {
  it('puts the device the server answered into the cached reminders, replacing its earlier self', async () => {
    const renewed: PushDevice = { ...laptop, createdAt: '2026-11-29T10:00:00Z' };
    server.use(http.post('*/api/profile/push-subscriptions', () => HttpResponse.json(renewed, { status: 201 })));
    const client = createTestQueryClient();
    client.setQueryData<Reminders>(getGetRemindersQueryKey(), getGetRemindersResponseMock({ devices: [laptop, phone] }));
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
    const { result } = renderHook(() => useAddDevice(), { wrapper });

    act(() => result.current.mutate({ data: { endpoint: 'https://push.example/1', keys: { p256dh: 'k', auth: 'a' } } }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));

    expect(client.getQueryData<Reminders>(getGetRemindersQueryKey())?.devices).toEqual([phone, renewed]);
  });
});
