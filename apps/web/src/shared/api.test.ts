import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../locales/en.json';
import { fetchStub, ok } from '../test/render';
import { ApiError, api, LOADING_DELAY_MS, REQUEST_TIMEOUT_MS, requestFull } from './api';
import { AppEvent, type NotLoggedInDetail } from './events';
import { changeLanguage } from './i18n';
import { getSession, setSession } from './session';

const user = {
  id: 7,
  nickname: 'Mali',
  account: 'mali@example.com',
  area_code: null,
  mobile: null,
  email: 'mali@example.com',
  lang: 'en',
  invite_code: 'ABC123',
  verification: 'none',
  advanced_verification: 'none',
  has_fund_password: false,
  created_at: '2025-01-01T00:00:00.000Z',
} as const;

describe('api client', () => {
  beforeEach(async () => {
    await changeLanguage('en');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('posts form-encoded with the token and language headers, and returns data', async () => {
    const stub = fetchStub({ 'user/nickname': ok({ nickname: 'Mali' }, 'Saved') });
    vi.stubGlobal('fetch', stub.fn);
    setSession('tok-1', user);

    const result = await requestFull<{ nickname: string }>('user/nickname', { body: { nickname: 'Mali' } });

    expect(result).toEqual({ data: { nickname: 'Mali' }, message: 'Saved' });
    const call = stub.calls[0];
    expect(call?.path).toBe('user/nickname');
    expect(call?.body.get('nickname')).toBe('Mali');
    expect(call?.headers.get('Authorization')).toBe('tok-1');
    expect(call?.headers.get('lang')).toBe('en');
    expect(call?.headers.get('Content-Type')).toContain('application/x-www-form-urlencoded');
  });

  it('sends the language chosen a moment ago', async () => {
    const stub = fetchStub({ 'get/lang': ok({ lang: 'ja', langs: [] }) });
    vi.stubGlobal('fetch', stub.fn);
    await changeLanguage('ja');
    await api.get('get/lang');
    expect(stub.calls[0]?.headers.get('lang')).toBe('ja');
  });

  it('on 999 clears token and user, shows the message and fires verdant:not-logged-in', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({ 'user/center': { type: '999', code: 999, message: 'Please log in again' } }).fn,
    );
    setSession('expired', user);
    const events: NotLoggedInDetail[] = [];
    const listener = (e: Event) => events.push((e as CustomEvent<NotLoggedInDetail>).detail);
    window.addEventListener(AppEvent.notLoggedIn, listener);

    await expect(api.get('user/center')).rejects.toMatchObject({ kind: 'not-logged-in', code: 999 });

    window.removeEventListener(AppEvent.notLoggedIn, listener);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(getSession()).toEqual({ token: null, user: null });
    expect(events).toEqual([{ message: 'Please log in again', redirect: true }]);
    expect(await screen.findByText('Please log in again')).toBeTruthy();
  });

  it('shows the server message of any other failure and rejects with its code', async () => {
    vi.stubGlobal(
      'fetch',
      fetchStub({ 'user/login': { type: 'error', code: 2103, message: 'Wrong password', field: 'password' } })
        .fn,
    );
    const error = await api.post('user/login', { account: 'a', password: 'b' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 2103, message: 'Wrong password', field: 'password' });
    expect(await screen.findByText('Wrong password')).toBeTruthy();
  });

  it('shows ERROR when the answer has no message or is not JSON', async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(api.post('user/login')).rejects.toMatchObject({ kind: 'network' });
    expect(await screen.findByText('ERROR')).toBeTruthy();
  });

  it('shows ERROR when the network fails', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.get('area_code')).rejects.toMatchObject({ kind: 'network' });
    expect(await screen.findByText('ERROR')).toBeTruthy();
  });

  it('stays quiet when the caller asks to', async () => {
    vi.stubGlobal('fetch', fetchStub({ sms_send: { type: 'error', code: 2004, message: 'Too soon' } }).fn);
    await expect(api.post('sms_send', {}, { toastError: false })).rejects.toMatchObject({ code: 2004 });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Too soon')).toBeNull();
  });

  it('shows a loading toast only once a request has run 1 s (spec §9), and hides it at the answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let release: (r: Response) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (release = resolve)));
    const pending = api.post('user/logout');
    await act(() => vi.advanceTimersByTimeAsync(LOADING_DELAY_MS - 1));
    expect(screen.queryByText(en.common.loading)).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    vi.useRealTimers(); // the toast itself loads on demand
    expect(await screen.findByText(en.common.loading)).toBeTruthy();
    release(new Response(JSON.stringify(ok(null))));
    await pending;
    await waitFor(() => expect(screen.queryByText(en.common.loading)).toBeNull());
  });

  it('gives up after 60 s (spec §7) and says the request timed out, in the user language', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    let settled: unknown = 'pending';
    const pending = api.get('currency/quotation_new').catch((e: unknown) => {
      settled = e;
    });
    await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1));
    expect(settled).toBe('pending');
    await act(() => vi.advanceTimersByTimeAsync(1));
    await pending;
    vi.useRealTimers();
    expect(REQUEST_TIMEOUT_MS).toBe(60_000);
    expect(settled).toBeInstanceOf(ApiError);
    expect(settled).toMatchObject({ kind: 'timeout', message: en.common.timeout });
    expect(await screen.findByText(en.common.timeout)).toBeTruthy();
  });
});
