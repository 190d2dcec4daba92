import { dec } from '@verdant/engine';

/** "0.8" → "80", "0.025" → "2.5": a ratio as a percentage, exactly. */
export function percent(ratio: string): string {
  return dec(ratio).times(100).toFixed();
}

/** Seconds left until `deliverAt` on the server's clock (`offset`: server − device), never below 0. */
export function secondsLeft(deliverAt: number, offset: number, now = Date.now()): number {
  return Math.max(0, Math.ceil((deliverAt - (now + offset)) / 1000));
}

/** Where a waiting option stands now: its direction against the live price. */
export function standing(
  direction: 'bullish' | 'bearish',
  purchase: string,
  current: string | null,
): 'win' | 'loss' | 'flat' | null {
  if (current === null) return null;
  const c = dec(current).comparedTo(purchase);
  if (c === 0) return 'flat';
  return c > 0 === (direction === 'bullish') ? 'win' : 'loss';
}
