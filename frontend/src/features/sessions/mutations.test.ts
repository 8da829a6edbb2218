import { QueryClientProvider, type InfiniteData } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { getListChatSessionsQueryKey } from '../../api/gen/chat/chat';
import type { SessionListItem } from '../../api/gen/model';
import { act, createTestQueryClient, renderHook, server, waitFor } from '../../test-utils';
import { sessionPagesKey, type SessionPage } from '../dashboard/sessionPages';
import { useCreateSession, useDeleteSession, useEndSession } from './mutations';

function aSession(id: string, title: string): SessionListItem {
  return {
    id,
    title,
    lastMessage: null,
    updatedAt: '2026-11-20T10:00:00Z',
    status: 'ACTIVE',
    sessionSummary: null,
    sessionEmotions: [],
  };
}

const exams = aSession('5d0f7c1e-2b7a-4f0e-9a51-0c3d2e1f4a01', 'Exam worries');
const sunday = aSession('5d0f7c1e-2b7a-4f0e-9a51-0c3d2e1f4a02', 'Sunday reflections');

/** A cache holding the dashboard's pages (one of them searched) and the generated list. */
function seeded() {
  const client = createTestQueryClient();
  const pages = (items: SessionListItem[]): InfiniteData<SessionPage> => ({
    pages: [{ items, next: null }],
    pageParams: ['/api/chat/sessions'],
  });
  client.setQueryData(sessionPagesKey(''), pages([exams, sunday]));
  client.setQueryData(sessionPagesKey('exam'), pages([exams]));
  client.setQueryData(getListChatSessionsQueryKey(), [exams, sunday]);
  const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
  const items = (query: string) =>
    client.getQueryData<InfiniteData<SessionPage>>(sessionPagesKey(query))!.pages.flatMap((page) => page.items);
  const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
  return { wrapper, items, invalidated };
}

describe('useDeleteSession', () => {
  it('takes the session out of every cached page at once and marks every session list stale', async () => {
    let deleted: string | undefined;
    server.use(
      http.delete('*/api/chat/sessions/:id', ({ params }) => {
        deleted = String(params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { wrapper, items, invalidated } = seeded();
    const { result } = renderHook(() => useDeleteSession(), { wrapper });

    act(() => result.current.mutate({ id: exams.id }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));

    expect(deleted).toBe(exams.id);
    expect(items('')).toEqual([sunday]);
    expect(items('exam')).toEqual([]);
    expect(invalidated(sessionPagesKey(''))).toBe(true);
    expect(invalidated(sessionPagesKey('exam'))).toBe(true);
    expect(invalidated(getListChatSessionsQueryKey())).toBe(true);
  });

  it('leaves the cache as it was when the delete fails', async () => {
    server.use(http.delete('*/api/chat/sessions/:id', () => new HttpResponse('Session is locked', { status: 500, headers: { 'Content-Type': 'text/plain' } })));
    const { wrapper, items, invalidated } = seeded();
    const { result } = renderHook(() => useDeleteSession(), { wrapper });

    act(() => result.current.mutate({ id: exams.id }));
    await waitFor(() => expect(result.current.isError).toBe(true));

    expect(items('')).toEqual([exams, sunday]);
    expect(invalidated(sessionPagesKey(''))).toBe(false);
  });
});

describe('creating and ending a session', () => {
  it('marks every session list stale once the server answered', async () => {
    server.use(
      http.post('*/api/chat/message', () =>
        HttpResponse.json({ success: true, sessionId: exams.id, aiResponse: 'Hi.', sessionTokensUsed: 1, sessionTokenLimit: 1000, sessionEnded: false }),
      ),
      http.post('*/api/chat/sessions/:id/end', () => HttpResponse.json({ ...exams, status: 'ENDED' })),
    );
    const created = seeded();
    const create = renderHook(() => useCreateSession(), { wrapper: created.wrapper }).result;
    act(() => create.current.mutate({ data: { message: 'hello' } }));
    await waitFor(() => expect(create.current.isSuccess).toBe(true));
    expect(created.invalidated(sessionPagesKey(''))).toBe(true);
    expect(created.invalidated(getListChatSessionsQueryKey())).toBe(true);

    const ended = seeded();
    const end = renderHook(() => useEndSession(), { wrapper: ended.wrapper }).result;
    expect(ended.invalidated(sessionPagesKey(''))).toBe(false);
    act(() => end.current.mutate({ id: exams.id, data: {} }));
    await waitFor(() => expect(end.current.isSuccess).toBe(true));
    expect(ended.invalidated(sessionPagesKey(''))).toBe(true);
    expect(ended.invalidated(getListChatSessionsQueryKey())).toBe(true);
  });
});
