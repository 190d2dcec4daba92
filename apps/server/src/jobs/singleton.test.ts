import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterJobs, type Jobs, localJobs } from './singleton.ts';

const quiet = { info() {}, warn() {}, error() {} };

/** Resolves once `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('singleton jobs in one process', () => {
  it('runs every job at once and stops each on close', async () => {
    const jobs = localJobs('here', quiet);
    const log: string[] = [];
    jobs.runSingleton('feed', () => {
      log.push('feed started');
      return () => {
        log.push('feed stopped');
      };
    });
    await until(() => log.length === 1);
    expect(jobs.runs('feed')).toBe(true);
    expect(await jobs.owners()).toEqual([{ name: 'feed', node: 'here' }]);
    await jobs.close();
    expect(log).toEqual(['feed started', 'feed stopped']);
  });
});

const url = process.env.DATABASE_URL;

describe.skipIf(!url)(
  'singleton jobs across processes (PostgreSQL advisory locks)',
  { timeout: 30_000 },
  () => {
    const schema = `test_jobs_${randomBytes(4).toString('hex')}`;
    const open: Jobs[] = [];
    afterEach(async () => {
      await Promise.all(open.splice(0).map((j) => j.close()));
    });
    const node = async (nodeId: string) => {
      const j = await clusterJobs({
        url: url!,
        schema,
        nodeId,
        connectTimeoutMs: 5_000,
        pollMs: 100,
        checkMs: 200,
        log: quiet,
      });
      open.push(j);
      return j;
    };

    it('runs a job on one process only; another takes it when the owner stops or its connection dies', async () => {
      const running = new Set<string>();
      const starts: string[] = [];
      const job = (who: string) => () => {
        running.add(who);
        starts.push(who);
        return () => {
          running.delete(who);
        };
      };
      const a = await node('a');
      a.runSingleton('index-feed', job('a'));
      await until(() => running.has('a'));
      const b = await node('b');
      const c = await node('c');
      b.runSingleton('index-feed', job('b'));
      c.runSingleton('index-feed', job('c'));
      // several of their polls later, still only a
      await new Promise((r) => setTimeout(r, 500));
      expect([...running]).toEqual(['a']);
      expect(await b.owners()).toEqual([{ name: 'index-feed', node: 'a' }]);

      // a stops cleanly: one of the others takes over
      await a.close();
      open.splice(open.indexOf(a), 1);
      await until(() => running.size === 1 && !running.has('a'));
      const next = [...running][0]!;
      const [owner, other] = next === 'b' ? [b, c] : [c, b];

      // the owner's connection is killed (as when its process dies): its copy stops, and the job
      // starts again on one process (whichever locks first: the old owner reconnects at once)
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
          [`verdant-jobs ${next}`],
        );
      } finally {
        await admin.end();
      }
      await until(() => starts.length === 3 && running.size === 1);
      await new Promise((r) => setTimeout(r, 500));
      expect(starts).toHaveLength(3);
      expect(running.size).toBe(1);
      expect([owner.runs('index-feed'), other.runs('index-feed')].filter(Boolean)).toHaveLength(1);
    });
  },
);
