/**
 * Every trigger of one contract market (take-profit, stop-loss, liquidation, limit orders), kept
 * in two heaps ordered by trigger price so that a tick touches only what it fires:
 *  - `down` triggers fire at the first price at or below their level (a long's stop-loss and
 *    liquidation, a short's take-profit, a long limit order), a max-heap: its top is the highest;
 *  - `up` triggers fire at the first price at or above their level, a min-heap.
 * A tick that fires nothing costs two comparisons; each fired trigger O(log n). Prices are whole
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

interface Entry {
  id: number;
  kind: TriggerKind;
  level: number;
  heap: Heap;
  at: number;
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
      const p = (i - 1) >> 1;
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
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.before(items[r]!, items[l]!) ? r : l;
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
  private readonly byId = new Map<number, Entry[]>();

  /** Positions (and pending orders) with at least one trigger. */
  get size(): number {
    return this.byId.size;
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  /** The triggers of `id`, replacing any it had (an empty list removes it). */
  set(id: number, triggers: readonly Trigger[]): void {
    this.remove(id);
    if (triggers.length === 0) return;
    const entries: Entry[] = [];
    for (const t of triggers) {
      if (!Number.isSafeInteger(t.level))
        throw new RangeError(`trigger level must be a safe integer: ${t.level}`);
      const heap = t.crossing === 'down' ? this.down : this.up;
      const e: Entry = { id, kind: t.kind, level: t.level, heap, at: -1 };
      heap.push(e);
      entries.push(e);
    }
    this.byId.set(id, entries);
  }

  remove(id: number): boolean {
    const entries = this.byId.get(id);
    if (!entries) return false;
    for (const e of entries) e.heap.remove(e);
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
    const hit = new Map<number, TriggerKind>();
    const note = (e: Entry) => {
      const k = hit.get(e.id);
      if (k === undefined || PRIORITY[e.kind] < PRIORITY[k]) hit.set(e.id, e.kind);
    };
    while (top !== undefined && price <= top.level) {
      note(top);
      down.remove(top);
      top = down.peek();
    }
    while (top2 !== undefined && price >= top2.level) {
      note(top2);
      up.remove(top2);
      top2 = up.peek();
    }
    const out: Fired[] = [];
    for (const [id, kind] of hit) {
      this.remove(id);
      out.push({ id, kind });
    }
    return out.sort((a, b) => a.id - b.id);
  }
}
