import { dec } from '@verdant/engine';

/**
 * The simulated index price: a seeded random walk per market. Geometric Brownian motion with
 * the market's annualised volatility, a slow pull back towards its reference price (so months of
 * running stay in a believable range), and rare jumps. Pure and deterministic: the random
 * numbers of a step are a hash of (seed, market, step time), so the same seed asked at the same
 * times gives the same path, whatever happened before or after a restart.
 *
 * The walk computes in floating point; it never leaves this module as a number: `onGrid` turns
 * it into a decimal string on the market's tick grid, the only form that is recorded.
 */

const YEAR_MS = 365.25 * 86_400_000;
/** Half-life of the pull towards the reference price: 90 days. */
const REVERSION_PER_YEAR = Math.log(2) / (90 / 365.25);
/** Jumps: about two a day, each around ±0.8 % at 60 % volatility (scaled by the market's). */
const JUMPS_PER_YEAR = 2 * 365.25;
const JUMP_SIZE_PER_VOL = 0.008 / 0.6;

export interface WalkParams {
  marketId: number;
  /** Annualised volatility (0.6 = 60 %). */
  volatility: number;
  /** The reference price the walk drifts back to. */
  reference: number;
}

/** A 32-bit seed from any text (FNV-1a). */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mix(h: number, k: number): number {
  let x = Math.imul(k | 0, 0xcc9e2d51);
  x = (x << 15) | (x >>> 17);
  x = Math.imul(x, 0x1b873593);
  let y = h ^ x;
  y = (y << 13) | (y >>> 19);
  return (Math.imul(y, 5) + 0xe6546b64) | 0;
}

function fmix(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A uniform number in (0, 1) from the step's coordinates and a lane (one per draw). */
export function uniform(seed: number, marketId: number, atMs: number, lane: number): number {
  const hi = Math.floor(atMs / 4_294_967_296);
  const lo = atMs >>> 0;
  const h = fmix(mix(mix(mix(mix(seed, marketId), hi), lo), lane));
  return (h + 0.5) / 4_294_967_296;
}

/** A standard normal number (Box–Muller) from two lanes. */
export function normal(seed: number, marketId: number, atMs: number, lane: number): number {
  const u1 = uniform(seed, marketId, atMs, lane);
  const u2 = uniform(seed, marketId, atMs, lane + 1);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** The walk's price at `atMs`, `dtMs` after the previous price `prev`. */
export function step(prev: number, p: WalkParams, seed: number, atMs: number, dtMs: number): number {
  if (dtMs <= 0) return prev;
  const dt = dtMs / YEAR_MS;
  const sigma = p.volatility;
  const pull = REVERSION_PER_YEAR * Math.log(p.reference / prev) * dt;
  let x = pull - 0.5 * sigma * sigma * dt + sigma * Math.sqrt(dt) * normal(seed, p.marketId, atMs, 0);
  if (uniform(seed, p.marketId, atMs, 2) < JUMPS_PER_YEAR * dt)
    x += JUMP_SIZE_PER_VOL * sigma * normal(seed, p.marketId, atMs, 3);
  return prev * Math.exp(x);
}

/** Prices at start + k·stepMs (k = 1…) up to `endMs`, starting from `start`'s price `from`. */
export function path(
  from: number,
  p: WalkParams,
  seed: number,
  startMs: number,
  endMs: number,
  stepMs: number,
): { t: number; price: number }[] {
  const out: { t: number; price: number }[] = [];
  let price = from;
  for (let t = startMs + stepMs; t <= endMs; t += stepMs) {
    price = step(price, p, seed, t, stepMs);
    out.push({ t, price });
  }
  return out;
}

/** A simulated price as a whole number of ticks (at least one). */
export function toTicks(price: number, tickSize: number): number {
  return Math.max(1, Math.round(price / tickSize));
}

/** The price as a decimal string on the tick grid: the only form the walk's prices are kept in. */
export function onGrid(price: number, tickSize: string): string {
  return dec(tickSize)
    .times(toTicks(price, Number(tickSize)))
    .toFixed();
}

/** A simulated traded volume for one minute, in lots: log-normal around the market's typical. */
export function minuteVolumeLots(
  typicalBase: number,
  lotSize: number,
  seed: number,
  marketId: number,
  minuteMs: number,
  absReturn: number,
  volatility: number,
): bigint {
  const perMinuteSigma = volatility * Math.sqrt(60_000 / YEAR_MS);
  const activity = 1 + Math.min(4, absReturn / perMinuteSigma);
  const noise = Math.exp(0.6 * normal(seed, marketId, minuteMs, 8) - 0.18);
  return BigInt(Math.max(0, Math.round((typicalBase * activity * noise) / lotSize)));
}
