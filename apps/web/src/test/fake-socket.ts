import { vi } from 'vitest';

/**
 * A Socket.IO client stand-in for component tests: records what the page emits (sub, unsub)
 * and lets the test push server events. Use with
 * `vi.mock('socket.io-client', async () => ({ io: (await import('../../test/fake-socket')).fakeIo }))`.
 */
const handlers = new Map<string, Set<(p: unknown) => void>>();

export const fakeSocket = {
  connected: true,
  active: true,
  io: { opts: { query: {} as Record<string, string> } },
  on: (ev: string, fn: (p: unknown) => void) => {
    if (!handlers.has(ev)) handlers.set(ev, new Set());
    handlers.get(ev)?.add(fn);
  },
  off: (ev: string, fn: (p: unknown) => void) => handlers.get(ev)?.delete(fn),
  emit: vi.fn(),
  connect: vi.fn(),
  disconnect: vi.fn(),
};

export const fakeIo = () => fakeSocket;

/** Delivers a server event to every handler the page registered. */
export function pushEvent(ev: string, payload: unknown): void {
  for (const fn of handlers.get(ev) ?? []) fn(payload);
}

export function handlerCount(ev: string): number {
  return handlers.get(ev)?.size ?? 0;
}

/** Forgets handlers and recorded emits between tests. */
export function resetFakeSocket(): void {
  handlers.clear();
  fakeSocket.emit.mockClear();
}
