/**
 * Lighthouse (12, its default mobile preset: Moto G Power screen, simulated slow 4G and a 4×
 * slower CPU) on four screens of the built app, served by a real server in a child process with
 * market data running: Home, the market list, the chart page and the assets page (logged in).
 * Debian's Chromium, headless, with every outside host unresolvable. Each page is measured `runs`
 * times, the pages interleaved so a busy moment of the machine does not land on one page only;
 * the figures are the medians.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import lighthouse from 'lighthouse';
import { openDb } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { freePort, seedTraders, startServer } from '../../apps/server/src/modules/spot/load.ts';
import { type ApiCompressionRow, apiCompression } from './api-compression.ts';
import { CHROMIUM_ARGS } from './shared.ts';

const root = resolve(import.meta.dirname, '../..');

export const LIGHTHOUSE_PAGES = [
  { key: 'home', hash: '#/', login: false },
  { key: 'market', hash: '#/pages/trade/index', login: false },
  { key: 'kline', hash: '#/pages/trade/kline?symbol=btcusdt', login: false },
  { key: 'assets', hash: '#/pages/assets/index', login: true },
] as const;

export interface LighthouseFigures {
  perf: number;
  a11y: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  /** Bytes Lighthouse saw transferred for the page (every request, compressed as sent). */
  transferKb: number;
  /** The accessibility audits that failed in any run, by id. */
  a11yFailures: string[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function waitFor(what: string, ok: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what}: not ready after ${ms / 1000} s`);
}

export async function lighthouseBench(
  opts: { runs?: number; log?: (line: string) => void } = {},
): Promise<{ pages: Record<string, LighthouseFigures>; api: ApiCompressionRow[] }> {
  const runs = opts.runs ?? 3;
  const log = opts.log ?? (() => {});
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-lighthouse-'));
  const profile = mkdtempSync(join(tmpdir(), 'verdant-lighthouse-profile-'));
  // one funded user with a session, seeded before the server opens the folder (one process at a time)
  const db = await openDb({ dataDir });
  await migrate(db);
  const [trader] = await db.tx((q) => seedTraders(q, 1, { usdt: '25000', btc: '0.5' }));
  await db.close();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;
  const { chromium } = createRequire(join(root, 'apps/web/package.json'))(
    'playwright-core',
  ) as typeof import('playwright-core');
  const cdpPort = await freePort();
  let context: import('playwright-core').BrowserContext | null = null;
  try {
    // A day of chart history (enough for the chart's first screen), the feed and the market
    // maker running as in production.
    server = await startServer(
      {
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        BACKFILL_DAYS: '1',
        FEED_INTERVAL_MS: '1000',
        MARKET_MAKER: '1',
      },
      port,
      [],
      180_000,
    );
    await waitFor(
      'chart history',
      async () => {
        const r = await fetch(`${base}/api/currency/new_timeshar?symbol=btcusdt&interval=1min&limit=10`);
        const body = (await r.json()) as { data?: { list?: unknown[] } };
        return (body.data?.list?.length ?? 0) >= 10;
      },
      180_000,
    );
    const center = (await (
      await fetch(`${base}/api/user/center`, { headers: { authorization: trader!.token, lang: 'en' } })
    ).json()) as { data: unknown };
    // the same server's answers, for the API compression threshold
    const api = await apiCompression(base, trader!.token);
    // Lighthouse drives the browser through this port; the persistent context is the browser's
    // default one, the one its tabs open in, so the session written below is theirs too.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      viewport: null,
      args: [`--remote-debugging-port=${cdpPort}`, ...CHROMIUM_ARGS],
    });
    const setLogin = async (login: boolean) => {
      // an API address of the same origin: sets storage without loading (and caching) the app
      const page = await context!.newPage();
      await page.goto(`${base}/api/settings/none`);
      await page.evaluate(
        ([token, user]) => {
          if (token) {
            localStorage.setItem('token', token);
            localStorage.setItem('user', user);
          } else {
            localStorage.removeItem('token');
            localStorage.removeItem('user');
          }
        },
        [login ? trader!.token : '', JSON.stringify(center.data)] as const,
      );
      await page.close();
    };
    const samples: Record<string, { lh: Omit<LighthouseFigures, 'a11yFailures'>; failed: string[] }[]> = {};
    for (let r = 0; r < runs; r++) {
      for (const p of LIGHTHOUSE_PAGES) {
        await setLogin(p.login);
        // Lighthouse clears the HTTP cache before each run (not localStorage: its default
        // clearStorageTypes leave it), so every run is a first visit's load
        // A trace Chromium failed to record (NO_NAVSTART, seen on a loaded machine) is run again once
        let lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'] | undefined;
        for (let attempt = 1; ; attempt++) {
          const result = await lighthouse(`${base}/h5/${p.hash}`, {
            port: cdpPort,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility'],
          });
          lhr = result?.lhr;
          if (!lhr) throw new Error(`Lighthouse gave no result for ${p.key}`);
          if (!lhr.runtimeError) break;
          if (attempt === 2) throw new Error(`Lighthouse on ${p.key}: ${lhr.runtimeError.message}`);
          log(`  run ${r + 1} ${p.key}: ${lhr.runtimeError.code}, once more`);
        }
        // LIGHTHOUSE_REPORTS=<folder> keeps every run's report (long tasks, main-thread breakdown)
        if (process.env.LIGHTHOUSE_REPORTS) {
          mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
          writeFileSync(join(process.env.LIGHTHOUSE_REPORTS, `${p.key}-${r + 1}.json`), JSON.stringify(lhr));
        }
        const num = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
        const lh = {
          perf: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          a11y: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
          lcpMs: Math.round(num('largest-contentful-paint')),
          fcpMs: Math.round(num('first-contentful-paint')),
          tbtMs: Math.round(num('total-blocking-time')),
          cls: Number(num('cumulative-layout-shift').toFixed(3)),
          transferKb: Number((num('total-byte-weight') / 1024).toFixed(1)),
        };
        const failed = (lhr.categories.accessibility?.auditRefs ?? [])
          .filter((a) => a.weight > 0 && lhr.audits[a.id]?.score === 0)
          .map((a) => a.id);
        samples[p.key] ??= [];
        samples[p.key]!.push({ lh, failed });
        log(
          `  run ${r + 1} ${p.key.padEnd(7)} perf ${lh.perf}  LCP ${lh.lcpMs} ms  TBT ${lh.tbtMs} ms  ` +
            `CLS ${lh.cls}  a11y ${lh.a11y}${failed.length ? ` (${failed.join(', ')})` : ''}`,
        );
      }
    }
    const out: Record<string, LighthouseFigures> = {};
    for (const [key, s] of Object.entries(samples)) {
      const m = (f: keyof Omit<LighthouseFigures, 'a11yFailures'>) => median(s.map((x) => x.lh[f]));
      out[key] = {
        perf: m('perf'),
        a11y: m('a11y'),
        lcpMs: m('lcpMs'),
        fcpMs: m('fcpMs'),
        tbtMs: m('tbtMs'),
        cls: m('cls'),
        transferKb: m('transferKb'),
        a11yFailures: [...new Set(s.flatMap((x) => x.failed))],
      };
    }
    return { pages: out, api };
  } finally {
    await context?.close().catch(() => {});
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}
