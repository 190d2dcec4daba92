/**
 * `npm run bench`: Verdant's performance figures, each beside a reference measured or set in the
 * same run. `npm run bench -- --json` also prints every figure as one JSON object on its last line.
 * `npm run bench -- --only engine` (or `--only first-load,engine`) runs only the named sections;
 * by default every section runs.
 *
 * Sections (later issues add more):
 *   first load — the document, JS and CSS that /h5/ (Home) fetches before it is interactive
 *                (found by loading the built app from a real server in headless Chromium), fetched
 *                again with Chromium's Accept-Encoding: bytes on the wire, beside the same files
 *                uncompressed (what the server sent before it served the build's brotli files).
 *   lighthouse — Lighthouse's mobile preset on Home, the market list, the chart and the assets page
 *                (logged in), three runs each, medians; and what compressing API answers saves
 *                and costs (the server's threshold).
 *   http-orders — spot orders placed over loopback HTTP through the whole path (session,
 *                validation, freeze, engine, batched commit) on a server in a child process,
 *                on a fresh PGlite folder and on PostgreSQL (DATABASE_URL, default the local server).
 *   engine     — the matching engine beside the npm package nodejs-order-book on two seeded
 *                command streams, a steady-state book and a book 100k price levels deep:
 *                throughput of both, their ratio, both engines' per-command latency.
 *   fanout     — Socket.IO messages delivered per second to 1,000 clients of the chart page's
 *                streams by the server in a child process (feed, market maker and a light order
 *                load running), beside a bare Socket.IO server sending the same payloads at the
 *                same rates to the same clients; at the default MARKET_PUBLISH_MS and at 25 ms.
 *   options    — 10,000 timed options due in the same second settled through the ledger: one
 *                pass of the settlement job, its lateness on its timer beside a feed, and one
 *                transaction per order as the peer; PGlite and PostgreSQL.
 *   contract   — index ticks per second through the contract trigger index with 100,000 open
 *                positions, beside a scan of every position per tick.
 */
import type { Latency } from './bench/engine.ts'; // a type only: the sections still load lazily

const args = process.argv.slice(2);
const json = args.includes('--json');
const onlyAt = args.indexOf('--only');
const onlyArg =
  args.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? (onlyAt >= 0 ? args[onlyAt + 1] : '');
const only = new Set((onlyArg ?? '').split(',').filter(Boolean));
const SECTIONS = ['first-load', 'lighthouse', 'engine', 'http-orders', 'fanout', 'contract', 'options'];
for (const s of only) {
  if (!SECTIONS.includes(s)) {
    console.error(`Unknown section "${s}": choose among ${SECTIONS.join(', ')}`);
    process.exit(2);
  }
}
const runs = (section: string) => only.size === 0 || only.has(section);
const figures: Record<string, number> = {};

/** `<prefix>_p50_us`, `_p99_us`, `_p999_us`: a latency's percentiles in microseconds. */
function latencyFigures(prefix: string, l: Latency): void {
  figures[`${prefix}_p50_us`] = Number(l.p50Us.toFixed(3));
  figures[`${prefix}_p99_us`] = Number(l.p99Us.toFixed(3));
  figures[`${prefix}_p999_us`] = Number(l.p999Us.toFixed(3));
}

if (runs('first-load')) {
  const { firstLoad } = await import('./bench/first-load.ts');
  const fl = await firstLoad();
  figures.first_load_transfer_kb = fl.transferKb;
  figures.first_load_js_transfer_kb = fl.jsTransferKb;
  figures.first_load_css_transfer_kb = fl.cssTransferKb;
  figures.first_load_uncompressed_kb = fl.rawKb;
  figures.first_load_requests = fl.files.length;
  figures.first_load_js_gzip_kb = fl.jsKb;
  figures.first_load_css_gzip_kb = fl.cssKb;
  figures.react_floor_js_gzip_kb = fl.reactFloorKb;
  console.log(
    "\nFirst load of /h5/ (Home) at 390 × 844: the files Chromium fetched, again with Chromium's Accept-Encoding",
  );
  console.log('     on the wire   uncompressed  encoding');
  for (const f of fl.files)
    console.log(
      `  ${f.wireKb.toFixed(1).padStart(9)} KB  ${f.rawKb.toFixed(1).padStart(9)} KB   ${f.encoding.padEnd(8)} ${f.path}`,
    );
  console.log(
    `  ${fl.transferKb.toFixed(1).padStart(9)} KB  ${fl.rawKb.toFixed(1).padStart(9)} KB   in all, ${fl.files.length} requests ` +
      `(JS ${fl.jsTransferKb.toFixed(1)} KB, CSS ${fl.cssTransferKb.toFixed(1)} KB on the wire; budget 170 KB: ${fl.transferKb <= 170 ? 'within' : 'OVER'})`,
  );
  console.log(
    `  gzip -9 of the files (the earlier figure): JS ${fl.jsKb.toFixed(1)} KB, CSS ${fl.cssKb.toFixed(1)} KB; ` +
      `reference: React + ReactDOM alone ${fl.reactFloorKb.toFixed(1)} KB gzipped`,
  );
}

if (runs('lighthouse')) {
  const { lighthouseBench } = await import('./bench/lighthouse.ts');
  console.log(
    "\nLighthouse 12, mobile preset (simulated slow 4G, 4× CPU slowdown), Debian's Chromium headless and offline; " +
      'three runs per page, interleaved, medians',
  );
  const { pages, api } = await lighthouseBench({ runs: 3, log: (l) => console.log(l) });
  const goal = (ok: boolean) => (ok ? 'met' : 'NOT met');
  for (const [key, p] of Object.entries(pages)) {
    figures[`${key}_lighthouse_perf`] = p.perf;
    figures[`${key}_lighthouse_lcp_ms`] = p.lcpMs;
    figures[`${key}_lighthouse_tbt_ms`] = p.tbtMs;
    figures[`${key}_lighthouse_a11y`] = p.a11y;
    figures[`${key}_lighthouse_fcp_ms`] = p.fcpMs;
    figures[`${key}_lighthouse_cls`] = p.cls;
    console.log(
      `  ${key.padEnd(7)} performance ${p.perf} (≥ 95: ${goal(p.perf >= 95)})  LCP ${p.lcpMs} ms (≤ 2000: ${goal(p.lcpMs <= 2000)})  ` +
        `TBT ${p.tbtMs} ms (≤ 150: ${goal(p.tbtMs <= 150)})  accessibility ${p.a11y} (≥ 95: ${goal(p.a11y >= 95)})  ` +
        `FCP ${p.fcpMs} ms  CLS ${p.cls}  ${p.transferKb} KB transferred` +
        (p.a11yFailures.length ? `  failing: ${p.a11yFailures.join(', ')}` : ''),
    );
  }
  console.log(
    "\nAPI answers: JSON, brotli 4 and gzip 6 (the server's settings), median CPU time to compress, time saved on the mobile link",
  );
  for (const r of api)
    console.log(
      `  ${String(r.bytes).padStart(7)} B  br ${String(r.brBytes).padStart(6)} B ${r.brUs.toFixed(0).padStart(5)} µs  ` +
        `gzip ${String(r.gzipBytes).padStart(6)} B ${r.gzipUs.toFixed(0).padStart(5)} µs  saves ${r.savedMs.toFixed(1).padStart(6)} ms  ${r.path}`,
    );
}

if (runs('engine')) {
  const { engineBench } = await import('./bench/engine.ts');
  const e = await engineBench();
  const { steady, deep } = e;
  // The keys without a stream's name are the steady stream's (as before the deep stream existed).
  figures.engine_ops_per_s = Math.round(steady.oursOpsPerS);
  figures.peer_ops_per_s = Math.round(steady.peerOpsPerS);
  figures.engine_peer_ratio = Number(steady.ratio.toFixed(2));
  latencyFigures('engine', steady.ours);
  latencyFigures('peer_steady', steady.peer);
  figures.engine_steady_orders = steady.ordersAtStart;
  figures.engine_deep_ops_per_s = Math.round(deep.oursOpsPerS);
  figures.peer_deep_ops_per_s = Math.round(deep.peerOpsPerS);
  figures.engine_deep_peer_ratio = Number(deep.ratio.toFixed(2));
  latencyFigures('engine_deep', deep.ours);
  latencyFigures('peer_deep', deep.peer);
  figures.engine_deep_levels = deep.levelsAtStart;
  // From CPU time: what a machine shared with other work does not inflate.
  for (const [key, f] of [
    ['steady', steady],
    ['deep', deep],
  ] as const) {
    figures[`engine_${key}_cpu_ops_per_s`] = Math.round(f.oursCpuOpsPerS);
    figures[`peer_${key}_cpu_ops_per_s`] = Math.round(f.peerCpuOpsPerS);
    figures[`engine_${key}_cpu_peer_ratio`] = Number(f.cpuRatio.toFixed(2));
  }
  figures.engine_bench_load_avg = Number(e.load.toFixed(2));
  const n = (x: number) => x.toLocaleString('en');
  const ops = (x: number) => `${(x / 1e6).toFixed(2).padStart(7)} M commands/s`;
  const us = (x: number) => `${x.toFixed(2).padStart(7)} µs`;
  const lat = (l: typeof steady.ours) =>
    `p50 ${us(l.p50Us)}   p99 ${us(l.p99Us)}   p99.9 ${us(l.p999Us)}   max ${us(l.maxUs)}`;
  console.log(
    '\nMatching engine beside nodejs-order-book, the same seeded streams for both; Verdant with the ' +
      "server's sink (events taken as an array after each command and walked)",
  );
  for (const [name, f] of [
    ['steady state', steady],
    ['deep book', deep],
  ] as const) {
    const { limit, marketable, market, cancel } = f.mix;
    console.log(
      `  ${name}: ${n(f.commands)} commands measured after a prefix of ${n(f.prefix)} that builds the book`,
    );
    console.log(
      `    ${n(limit)} limit (${n(marketable)} marketable), ${n(market)} market, ${n(cancel)} cancel; ${n(f.fills)} fills; ` +
        `book ${n(f.ordersAtStart)} orders on ${n(f.levelsAtStart)} levels at the start, ` +
        `${n(f.ordersAtEnd)} on ${n(f.levelsAtEnd)} at the end; books identical at the end: ${f.booksIdentical ? 'yes' : 'NO'}`,
    );
    const target = (ratio: number) =>
      name === 'steady state' ? `  (target ≥ 10 ×: ${ratio >= 10 ? 'met' : 'NOT met'})` : '';
    console.log(
      `    throughput (median of ${f.rounds} rounds, fresh book each)      wall clock        from CPU time`,
    );
    console.log(`      Verdant engine       ${ops(f.oursOpsPerS)}   ${ops(f.oursCpuOpsPerS)}`);
    console.log(`      nodejs-order-book    ${ops(f.peerOpsPerS)}   ${ops(f.peerCpuOpsPerS)}`);
    console.log(
      `      ratio                ${f.ratio.toFixed(1).padStart(7)} ×${' '.repeat(16)}${f.cpuRatio.toFixed(1).padStart(7)} ×${target(f.ratio)}`,
    );
    console.log('    latency per command (warmed up, timer around each command)');
    const met = (l: typeof f.ours) => `(target p99 < 10 µs: ${l.p99Us < 10 ? 'met' : 'NOT met'})`;
    console.log(`      Verdant engine       ${lat(f.ours)}   ${met(f.ours)}`);
    console.log(`      nodejs-order-book    ${lat(f.peer)}`);
  }
  console.log(
    `  (two timer reads alone cost ${us(e.timerOverheadUs)}; load average ${e.load.toFixed(2)} on ${e.cpus} CPUs when the section began)`,
  );
}

if (runs('http-orders')) {
  const { httpOrdersBench } = await import('./bench/http-orders.ts');
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  console.log('\nSpot orders over HTTP: limit orders from 200 users on 100 keep-alive connections, loopback');
  for (const db of ['pglite', 'postgres'] as const) {
    const target = db === 'pglite' ? 1000 : 5000;
    try {
      const r = await httpOrdersBench({ db, url });
      figures[`http_orders_per_s_${db}`] = Math.round(r.ordersPerS);
      figures[`http_p50_ms_${db}`] = Number(r.p50Ms.toFixed(2));
      figures[`http_p99_ms_${db}`] = Number(r.p99Ms.toFixed(2));
      console.log(
        `  ${db.padEnd(8)} ${Math.round(r.ordersPerS).toLocaleString('en').padStart(6)} orders/s  p50 ${r.p50Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  ` +
          `(${r.orders.toLocaleString('en')} orders, ${r.trades.toLocaleString('en')} trades, ${r.errors} errors; target ≥ ${target.toLocaleString('en')}/s: ${r.ordersPerS >= target ? 'met' : 'NOT met'})`,
      );
    } catch (e) {
      console.log(`  ${db}: not measured (${(e as Error).message.split('\n')[0]})`);
    }
  }
  // a cluster: two processes on one PostgreSQL schema and Redis, the connections spread over
  // both; the one that does not own btcusdt's book hands its orders to the owner
  try {
    const r = await httpOrdersBench({ db: 'postgres', url, processes: 2, redisUrl: process.env.REDIS_URL });
    figures.http_orders_per_s_postgres_2proc = Math.round(r.ordersPerS);
    figures.http_p50_ms_postgres_2proc = Number(r.p50Ms.toFixed(2));
    figures.http_p99_ms_postgres_2proc = Number(r.p99Ms.toFixed(2));
    console.log(
      `  postgres, 2 processes ${Math.round(r.ordersPerS).toLocaleString('en').padStart(6)} orders/s  p50 ${r.p50Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  ` +
        `(${r.orders.toLocaleString('en')} orders, ${r.trades.toLocaleString('en')} trades, ${r.errors} errors; half the connections through the process that does not own the book)`,
    );
  } catch (e) {
    console.log(`  postgres, 2 processes: not measured (${(e as Error).message.split('\n')[0]})`);
  }
}

if (runs('fanout')) {
  const { fanoutBench } = await import('./bench/fanout.ts');
  type FanoutResult = Awaited<ReturnType<typeof fanoutBench>>;
  const per = (r: FanoutResult['verdant']) =>
    Object.entries(r.perStream)
      .map(([e, n]) => `${e} ${Math.round(n).toLocaleString('en')}`)
      .join(', ');
  const lag = (r: FanoutResult['verdant']) =>
    r.lagP50Ms === null ? 'no trades' : `p50 ${r.lagP50Ms} ms  p99 ${r.lagP99Ms} ms`;
  console.log(
    '\nSocket fan-out: 1,000 Socket.IO clients (websocket, in 2 client processes), each on tickers, ' +
      'ticker, depth, trades and kline 1min of btcusdt',
  );
  // the default coalescing caps each stream at ~3 messages/s per client (5 streams × 1,000
  // clients ≈ 16,700/s at most), so the capacity figure is taken with the server asked to publish
  // every 25 ms and the feed at 50 ms: the offered rate then exceeds what the machine can deliver
  const runsOf = [
    {
      label: 'default MARKET_PUBLISH_MS=300, feed 100 ms, 20 orders/s',
      key: 'fanout_default',
      publishMs: 300,
    },
    { label: 'capacity MARKET_PUBLISH_MS=25, feed 50 ms, 40 orders/s', key: 'fanout', publishMs: 25 },
  ];
  for (const run of runsOf) {
    try {
      const capacity = run.key === 'fanout';
      const r = await fanoutBench({
        publishMs: run.publishMs,
        feedMs: capacity ? 50 : 100,
        ordersPerS: capacity ? 40 : 20,
      });
      figures[`${run.key}_deliveries_per_s`] = Math.round(r.verdant.deliveriesPerS);
      figures[`${run.key}_peer_deliveries_per_s`] = Math.round(r.peer.deliveriesPerS);
      figures[`${run.key}_peer_ratio`] = Number(r.ratio.toFixed(2));
      if (r.verdant.lagP50Ms !== null) figures[`${run.key}_lag_p50_ms`] = r.verdant.lagP50Ms;
      if (r.verdant.lagP99Ms !== null) figures[`${run.key}_lag_p99_ms`] = r.verdant.lagP99Ms;
      for (const [e, n] of Object.entries(r.verdant.perStream))
        figures[`${run.key}_${e}_per_s`] = Math.round(n);
      console.log(`  ${run.label}`);
      console.log(
        `    Verdant     ${Math.round(r.verdant.deliveriesPerS).toLocaleString('en').padStart(7)} deliveries/s to ${r.verdant.clients} clients` +
          (capacity
            ? `  (target ≥ 50,000/s: ${r.verdant.deliveriesPerS >= 50_000 ? 'met' : 'NOT met'})`
            : ''),
      );
      console.log(`                per stream: ${per(r.verdant)}`);
      console.log(`                trade → client lag (includes the coalescing wait): ${lag(r.verdant)}`);
      console.log(
        `    bare Socket.IO, same payloads at the same rates  ${Math.round(r.peer.deliveriesPerS).toLocaleString('en').padStart(7)} deliveries/s  ` +
          `(send → client lag ${lag(r.peer)})`,
      );
      console.log(
        `    ratio ${r.ratio.toFixed(2)}; payload bytes: ${Object.entries(r.verdant.payloadBytes)
          .map(([e, b]) => `${e} ${b}`)
          .join(', ')}; ${r.trades.toLocaleString('en')} trades in the run`,
      );
    } catch (e) {
      console.log(`  ${run.label}: not measured (${(e as Error).message.split('\n')[0]})`);
    }
  }
}

if (runs('fanout')) {
  // the same clients spread over two processes of a cluster (PostgreSQL and Redis): every
  // message crosses Redis to the process its client is on
  const { fanoutClusterBench } = await import('./bench/fanout.ts');
  try {
    const r = await fanoutClusterBench({
      processes: 2,
      url: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
      redisUrl: process.env.REDIS_URL,
      publishMs: 25,
      feedMs: 50,
      ordersPerS: 40,
    });
    figures.fanout_deliveries_per_s_2proc = Math.round(r.verdant.deliveriesPerS);
    console.log(
      `  2 processes (PostgreSQL, Redis adapter), capacity settings: ${Math.round(r.verdant.deliveriesPerS).toLocaleString('en')} deliveries/s to ${r.verdant.clients} clients` +
        (r.verdant.lagP50Ms === null
          ? ''
          : `; trade → client lag p50 ${r.verdant.lagP50Ms} ms  p99 ${r.verdant.lagP99Ms} ms`),
    );
  } catch (e) {
    console.log(`  2 processes: not measured (${(e as Error).message.split('\n')[0]})`);
  }
}

if (runs('contract')) {
  const { contractBench } = await import('./bench/contract.ts');
  const c = contractBench();
  figures.contract_ticks_per_s_100k = Math.round(c.ticksPerS);
  figures.contract_ticks_per_cpu_s_100k = Math.round(c.ticksPerCpuS);
  figures.contract_peer_ticks_per_s_100k = Math.round(c.peerTicksPerS);
  figures.contract_bench_load_avg = Number(c.load.toFixed(2));
  console.log(
    `\nContract triggers: ${c.positions.toLocaleString('en')} open positions, each with take-profit, stop-loss and liquidation`,
  );
  console.log(
    `  trigger index  ${Math.round(c.ticksPerS).toLocaleString('en').padStart(9)} ticks/s  (${Math.round(c.ticksPerCpuS).toLocaleString('en')} per CPU second; goal ≥ 100,000: ${c.ticksPerS >= 100_000 ? 'met' : 'NOT met'}); ${c.fired.toLocaleString('en')} closes in ${c.ticks.toLocaleString('en')} ticks, each reopened`,
  );
  console.log(
    `  scan of every position per tick (peer)  ${Math.round(c.peerTicksPerS).toLocaleString('en')} ticks/s`,
  );
}

if (runs('options')) {
  const { optionsBench } = await import('./bench/options.ts');
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  console.log('\nOption settlement: 10,000 orders of 1,000 users due in the same second, through the ledger');
  for (const db of ['pglite', 'postgres'] as const) {
    try {
      const r = await optionsBench({ db, url, peer: true });
      // the keys without a suffix are the embedded database's (what `npm start` runs on)
      const k = db === 'pglite' ? '' : '_postgres';
      figures[`options_settle_10k_ms${k}`] = Math.round(r.settle10kMs);
      // in-process PGlite: the CPU time includes the database's work
      if (db === 'pglite') figures.options_settle_10k_cpu_ms = Math.round(r.settle10kCpuMs);
      figures[`options_settle_10k_owners_ms${k}`] = Math.round(r.owners10kMs);
      figures[`options_settle_p50_late_ms${k}`] = r.p50LateMs;
      figures[`options_settle_p99_late_ms${k}`] = r.p99LateMs;
      if (r.peer10kMs !== null) figures[`options_settle_peer_10k_ms${k}`] = Math.round(r.peer10kMs);
      console.log(
        `  ${db.padEnd(8)} one pass ${Math.round(r.settle10kMs).toLocaleString('en').padStart(6)} ms (median of ${r.passesMs.map((x) => Math.round(x).toLocaleString('en')).join(' / ')})${db === 'pglite' ? ` (CPU ${Math.round(r.settle10kCpuMs).toLocaleString('en')} ms)` : ''} (goal < 1,000: ${r.settle10kMs < 1000 ? 'met' : 'NOT met'}; ` +
          `${Object.entries(r.results)
            .map(([k2, n]) => `${n} ${k2}`)
            .join(', ')}; ledger ${r.ledgerClean ? 'verifies' : 'DOES NOT verify'})`,
      );
      console.log(
        `           10,000 orders of 10,000 owners (one each), one pass ${Math.round(r.owners10kMs).toLocaleString('en')} ms`,
      );
      console.log(
        `           on the job's timer, a tick every 250 ms: settled after it could be p50 ${r.p50LateMs} ms  p99 ${r.p99LateMs} ms  max ${r.maxLateMs} ms`,
      );
      if (r.peer10kMs !== null)
        console.log(
          `           peer, one transaction per order: ${Math.round(r.peer10kMs).toLocaleString('en')} ms for 10,000`,
        );
    } catch (e) {
      console.log(`  ${db}: not measured (${(e as Error).message.split('\n')[0]})`);
    }
  }
}

if (json) console.log(JSON.stringify(figures));
