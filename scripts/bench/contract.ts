/**
 * Contract triggers: index ticks processed per second by the engine's TriggerIndex with 100,000
 * open positions (each with a take-profit, a stop-loss and a liquidation trigger), beside a scan
 * of every position on every tick (the peer: what a naive trigger loop does). The index walks a
 * seeded random walk of steps of σ ≈ 0.01 %; every position a tick closes is opened again at that
 * price, so the book stays at 100,000 positions and a share of ticks fires something.
 */
import { loadavg } from 'node:os';
import { type Trigger, TriggerIndex } from '@verdant/engine';
import { mulberry32 } from './shared.ts';

const POSITIONS = 100_000;
const START = 6_000_000; // 60,000.00 in ticks of 0.01

function triggersAt(price: number, r: () => number): Trigger[] {
  const long = r() < 0.5;
  const tp = Math.round(price * (0.005 + r() * 0.05));
  const sl = Math.round(price * (0.005 + r() * 0.05));
  const liq = Math.round(price * (0.01 + r() * 0.1));
  return long
    ? [
        { kind: 'take_profit', crossing: 'up', level: price + tp },
        { kind: 'stop_loss', crossing: 'down', level: price - sl },
        { kind: 'liquidation', crossing: 'down', level: price - liq },
      ]
    : [
        { kind: 'take_profit', crossing: 'down', level: price - tp },
        { kind: 'stop_loss', crossing: 'up', level: price + sl },
        { kind: 'liquidation', crossing: 'up', level: price + liq },
      ];
}

function walk(n: number, seed: number): Int32Array {
  const r = mulberry32(seed);
  const out = new Int32Array(n);
  let p = START;
  for (let i = 0; i < n; i++) {
    // σ ≈ 0.01 % a tick: BTC's ~55 % yearly volatility at one tick a second
    p = Math.max(1, p + Math.round(p * (r() - 0.5) * 0.00035));
    out[i] = p;
  }
  return out;
}

export interface ContractBench {
  positions: number;
  ticks: number;
  ticksPerS: number;
  ticksPerCpuS: number;
  fired: number;
  peerTicks: number;
  peerTicksPerS: number;
  peerFired: number;
  /** The machine's 1-minute load average when the section began (2 CPUs shared). */
  load: number;
}

export function contractBench(): ContractBench {
  const load = loadavg()[0]!;
  // ours
  const r = mulberry32(7);
  const ix = new TriggerIndex();
  for (let id = 1; id <= POSITIONS; id++) ix.set(id, triggersAt(START, r));
  const ticks = walk(400_000, 11);
  // an untimed prefix: the heaps reach their steady mix and the code is compiled
  const WARM = 50_000;
  for (let i = 0; i < WARM; i++) for (const f of ix.tick(ticks[i]!)) ix.set(f.id, triggersAt(ticks[i]!, r));
  let fired = 0;
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let i = WARM; i < ticks.length; i++) {
    const p = ticks[i]!;
    const out = ix.tick(p);
    fired += out.length;
    for (const f of out) ix.set(f.id, triggersAt(p, r));
  }
  const ns = Number(process.hrtime.bigint() - t0);
  const cpu = process.cpuUsage(c0);
  const timed = ticks.length - WARM;
  // the peer: every position's three levels in flat arrays, all checked on every tick
  const r2 = mulberry32(7);
  const up = new Float64Array(POSITIONS * 3);
  const isUp = new Uint8Array(POSITIONS * 3);
  const fill = (i: number, price: number) => {
    const ts = triggersAt(price, r2);
    for (let k = 0; k < 3; k++) {
      up[i * 3 + k] = ts[k]!.level;
      isUp[i * 3 + k] = ts[k]!.crossing === 'up' ? 1 : 0;
    }
  };
  for (let i = 0; i < POSITIONS; i++) fill(i, START);
  const peerTicks = ticks.subarray(0, 2_000);
  let peerFired = 0;
  const p0 = process.hrtime.bigint();
  for (let t = 0; t < peerTicks.length; t++) {
    const p = peerTicks[t]!;
    for (let i = 0; i < POSITIONS; i++) {
      for (let k = 0; k < 3; k++) {
        const j = i * 3 + k;
        if (isUp[j] === 1 ? p >= up[j]! : p <= up[j]!) {
          peerFired++;
          fill(i, p);
          break;
        }
      }
    }
  }
  const peerNs = Number(process.hrtime.bigint() - p0);
  return {
    positions: ix.size,
    ticks: timed,
    ticksPerS: timed / (ns / 1e9),
    // the machine is shared: CPU time shows what the code costs when others take the cores
    ticksPerCpuS: timed / ((cpu.user + cpu.system) / 1e6),
    fired,
    peerTicks: peerTicks.length,
    peerTicksPerS: peerTicks.length / (peerNs / 1e9),
    peerFired,
    load,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(contractBench());
