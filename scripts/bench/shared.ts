/** Pieces several benchmarks use, so that each runs the same way. */
import type { ChildProcess } from 'node:child_process';

/** mulberry32: a seeded PRNG, so that every run draws the same values. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Flags of the headless Chromium the browser benchmarks drive: no background traffic of its own,
 * and every host but the local server unreachable, so that only the app's requests are measured.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** Stops the server processes and waits for them to exit (killed after 10 s if they hang). */
export async function stopServers(servers: ChildProcess[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((r) => {
          if (server.exitCode !== null) return r();
          server.once('exit', () => r());
          server.kill('SIGTERM');
          setTimeout(() => server.kill('SIGKILL'), 10_000).unref();
        }),
    ),
  );
}
