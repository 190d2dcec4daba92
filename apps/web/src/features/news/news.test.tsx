import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Message, MessagePage, NewsItem, UserCenter } from '@verdant/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { paths } from '../../shared/paths';
import { clearSession, setSession } from '../../shared/session';
import { pushEvent, resetFakeSocket } from '../../test/fake-socket';
import { fetchStub, ok, renderPage } from '../../test/render';
import NoticesPage from './NoticesPage';

vi.mock('socket.io-client', async () => ({ io: (await import('../../test/fake-socket')).fakeIo }));
const { closeSocket } = await import('../../shared/socket');

afterEach(() => {
  closeSocket();
  resetFakeSocket();
  clearSession();
  vi.unstubAllGlobals();
});

const user = {
  id: 7,
  nickname: 'Ploy',
  account: 'p@example.com',
  area_code: null,
  mobile: null,
  email: 'p@example.com',
  lang: 'en',
  invite_code: 'P7',
  verification: 'none',
  advanced_verification: 'none',
  has_fund_password: false,
  created_at: '2025-01-01T00:00:00.000Z',
} as unknown as UserCenter;

const notice = (id: number, title: string, read: boolean): NewsItem => ({
  id,
  kind: 'notice',
  title,
  summary: `${title} in short`,
  published_at: '2026-11-01T10:00:00.000Z',
  read,
});
const message = (id: string, body: string, read = false): Message => ({
  id,
  kind: 'deposit_passed',
  title: 'Deposit credited',
  body,
  read,
  created_at: '2026-11-01T10:00:00.000Z',
});
const page = <T,>(items: T[], unread: number) => ({ items, total: items.length, page: 1, limit: 20, unread });

describe('notices page', () => {
  it('a visitor reads the notices without marks, and is asked to log in for messages', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({ 'news/list': ok(page([notice(2, 'Fees change', false), notice(1, 'Welcome', false)], 0)) })
        .fn,
    );
    const { router } = renderPage(<NoticesPage />, paths.notices);
    const row = await screen.findByRole('button', { name: /^Fees change/ });
    expect(row.textContent).not.toContain(en.news.unread);
    fireEvent.click(row);
    await waitFor(() => expect(router.state.location.search).toBe('?id=2'));
    await act(() => router.navigate(`${paths.notices}?tab=messages`));
    await screen.findByText(en.news.loginForMessages);
  });

  it('marks unread notices for a logged-in user; a live message shows without a reload; mark read', async () => {
    setSession('tok', user);
    let messages = [message('1', 'Your deposit #1 of 10 USDT was approved.', true)];
    const stub = fetchStub({
      'news/list': ok(page([notice(2, 'Fees change', false), notice(1, 'Welcome', true)], 1)),
      'news/messages/unread': () => ok({ messages: messages.filter((m) => !m.read).length, notices: 1 }),
      'news/messages': () => ok(page(messages, messages.filter((m) => !m.read).length) as MessagePage),
      'news/messages/read': (body) => {
        messages = messages.map((m) => (m.id === body.get('id') ? { ...m, read: true } : m));
        return ok({ unread: 0 });
      },
    });
    vi.stubGlobal('fetch', stub.fn);
    const { router } = renderPage(<NoticesPage />, paths.notices);
    const fees = await screen.findByRole('button', { name: new RegExp(`^Fees change\\s*${en.news.unread}`) });
    expect(fees).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Welcome\s*Notice/ })).toBeTruthy();

    await act(() => router.navigate(`${paths.notices}?tab=messages`));
    await screen.findByText('Your deposit #1 of 10 USDT was approved.');
    // an operator passes another deposit: the socket says so, the list follows
    messages = [message('2', 'Your deposit #2 of 20 USDT was approved.'), ...messages];
    act(() => pushEvent('user_message', messages[0]));
    const fresh = await screen.findByRole('article', { name: `Deposit credited, ${en.news.unread}` });
    within(fresh).getByText('Your deposit #2 of 20 USDT was approved.');
    fireEvent.click(within(fresh).getByRole('button', { name: en.news.markRead }));
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: `Deposit credited, ${en.news.unread}` })).toBeNull(),
    );
    expect(stub.calls.find((c) => c.path === 'news/messages/read')?.body.get('id')).toBe('2');
  });
});
