import net from 'node:net';

/**
 * A TCP proxy on loopback (port from the OS) in front of a real server, to test what a lost or
 * hung network does: `reset()` resets every connection and every new one until `forward()`;
 * `stall()` keeps connections open but forwards nothing (new ones are accepted and get nothing
 * either) until `forward()`, after which new connections work again. Closing one side of a pair
 * closes the other, as a real network path would once either end gives up.
 */
export interface TcpProxy {
  port: number;
  /** postgres://… through the proxy, from the real connection string. */
  url(real: string): string;
  reset(): void;
  stall(): void;
  forward(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: 'forward' | 'reset' | 'stall' = 'forward';
  interface Pair {
    client: net.Socket;
    upstream: net.Socket | null;
    stalled: boolean;
  }
  const pairs = new Set<Pair>();
  const server = net.createServer((client) => {
    client.on('error', () => {});
    if (mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: null, stalled: mode === 'stall' };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      pair.upstream?.destroy();
    };
    client.on('close', end);
    if (pair.stalled) return;
    const up = net.connect(targetPort, targetHost);
    pair.upstream = up;
    up.on('error', () => {});
    up.on('close', end);
    client.on('data', (d) => {
      if (!pair.stalled) up.write(d);
    });
    up.on('data', (d) => {
      if (!pair.stalled) client.write(d);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url(real) {
      const u = new URL(real);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    reset() {
      mode = 'reset';
      for (const p of pairs) {
        p.client.resetAndDestroy();
        p.upstream?.destroy();
      }
      pairs.clear();
    },
    stall() {
      mode = 'stall';
      for (const p of pairs) p.stalled = true;
    },
    forward() {
      mode = 'forward';
    },
    async close() {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream?.destroy();
      }
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
