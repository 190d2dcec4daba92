import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from './i18n';
import { setSession } from './session';

const fake = vi.hoisted(() => {
  const socket = {
    connected: true,
    active: true,
    io: { opts: { query: {} as Record<string, string> } },
    disconnect: vi.fn(),
    connect: vi.fn(),
    on: vi.fn(),
  };
  const io = vi.fn((_opts: Record<string, unknown>) => socket);
  return { socket, io };
});
vi.mock('socket.io-client', () => ({ io: fake.io }));

const { closeSocket, getSocket } = await import('./socket');

describe('socket client', () => {
  afterEach(() => {
    closeSocket();
    fake.io.mockClear();
    fake.socket.connect.mockClear();
  });

  it('connects once, on first use, with the language and the token', async () => {
    await changeLanguage('ko');
    setSession('tok-9', {
      id: 9,
      nickname: 'n',
      account: 'a@b.co',
      area_code: null,
      mobile: null,
      email: 'a@b.co',
      lang: 'ko',
      invite_code: 'I',
      verification: 'none',
      advanced_verification: 'none',
      has_fund_password: false,
      created_at: '2025-01-01T00:00:00.000Z',
    });
    expect(fake.io).not.toHaveBeenCalled();

    expect(getSocket()).toBe(getSocket());
    expect(fake.io).toHaveBeenCalledTimes(1);
    const opts = fake.io.mock.calls[0]?.[0] ?? {};
    expect(opts).toMatchObject({
      path: '/socket.io',
      transports: ['websocket', 'polling'],
      query: { lang: 'ko' },
    });
    const auth = opts.auth as (cb: (data: object) => void) => void;
    let sent: object = {};
    auth((data) => {
      sent = data;
    });
    expect(sent).toEqual({ token: 'tok-9' });
  });

  it('reconnects with the new language when it changes', async () => {
    await changeLanguage('en');
    getSocket();
    await changeLanguage('es');
    expect(fake.socket.io.opts.query).toEqual({ lang: 'es' });
    expect(fake.socket.connect).toHaveBeenCalledTimes(1);
  });
});
