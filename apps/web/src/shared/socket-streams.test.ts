import { afterEach, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => {
  const handlers = new Map<string, () => void>();
  const socket = {
    connected: false,
    active: true,
    io: { opts: { query: {} as Record<string, string> } },
    on: (ev: string, fn: () => void) => handlers.set(ev, fn),
    emit: vi.fn(),
    connect: vi.fn(),
    disconnect: vi.fn(),
  };
  return { socket, handlers };
});
vi.mock('socket.io-client', () => ({ io: () => fake.socket }));

const { activeStreams, closeSocket, subscribeStreams } = await import('./socket');

describe('socket streams', () => {
  afterEach(() => {
    closeSocket();
    fake.socket.emit.mockClear();
  });

  it('joins on connect, shares streams between callers and leaves with the last one', () => {
    const leaveA = subscribeStreams(['tickers', 'depth:btcusdt']);
    expect(fake.socket.emit).not.toHaveBeenCalled(); // not connected yet
    fake.socket.connected = true;
    fake.handlers.get('connect')?.();
    expect(fake.socket.emit).toHaveBeenLastCalledWith('sub', ['tickers', 'depth:btcusdt']);

    const leaveB = subscribeStreams(['tickers', 'trades:btcusdt']);
    expect(fake.socket.emit).toHaveBeenLastCalledWith('sub', ['trades:btcusdt']);

    leaveA();
    expect(fake.socket.emit).toHaveBeenLastCalledWith('unsub', ['depth:btcusdt']);
    leaveA(); // twice changes nothing
    expect(activeStreams().sort()).toEqual(['tickers', 'trades:btcusdt']);

    // a reconnection (a new server-side socket) joins again what is still shown
    fake.handlers.get('connect')?.();
    expect(fake.socket.emit).toHaveBeenLastCalledWith('sub', ['tickers', 'trades:btcusdt']);

    leaveB();
    expect(fake.socket.emit).toHaveBeenLastCalledWith('unsub', ['tickers', 'trades:btcusdt']);
    expect(activeStreams()).toEqual([]);
  });
});
