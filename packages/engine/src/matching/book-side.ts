import type { OrderId, OwnerId } from './types.ts';

/** A resting order: a node of its price level's FIFO (an intrusive doubly linked list). */
export class OrderNode {
  id: OrderId = 0;
  owner: OwnerId = 0;
  bid = false;
  price = 0;
  remaining = 0;
  seq = 0;
  prev: OrderNode | null = null;
  next: OrderNode | null = null;
  level: Level | null = null;
}

/** One price of one side: its orders oldest first, and their total. */
export class Level {
  price = 0;
  total = 0;
  count = 0;
  head: OrderNode | null = null;
  tail: OrderNode | null = null;

  /** Appends at the back of the queue (the newest order). */
  push(node: OrderNode): void {
    node.level = this;
    node.next = null;
    node.prev = this.tail;
    if (this.tail === null) this.head = node;
    else this.tail.next = node;
    this.tail = node;
    this.total += node.remaining;
    this.count++;
  }

  /** Inserts by sequence (restoring a book): walks from the back, so orders given in sequence cost O(1). */
  insertBySeq(node: OrderNode): void {
    let after = this.tail;
    while (after !== null && after.seq > node.seq) after = after.prev;
    if (after === this.tail) {
      this.push(node);
      return;
    }
    node.level = this;
    node.prev = after;
    const before = after === null ? this.head : after.next;
    node.next = before;
    if (before !== null) before.prev = node;
    if (after === null) this.head = node;
    else after.next = node;
    this.total += node.remaining;
    this.count++;
  }

  /** Removes a node in O(1). Does not touch `total`: the caller subtracts what the node still had. */
  unlink(node: OrderNode): void {
    const { prev, next } = node;
    if (prev === null) this.head = next;
    else prev.next = next;
    if (next === null) this.tail = prev;
    else next.prev = prev;
    node.prev = null;
    node.next = null;
    node.level = null;
    this.count--;
  }
}

/**
 * One side of a book: its levels in an array sorted from worst to best, so the best level is the
 * last element (matching pops it in O(1)) and a new level is placed by binary search. `keys` holds
 * each level's sort key beside it (the price for bids, minus the price for asks: always ascending),
 * so the search reads a packed array of numbers instead of following pointers.
 */
export class BookSide {
  readonly levels: Level[] = [];
  readonly keys: number[] = [];
  /** Lots resting on this side. */
  total = 0;
  private readonly pool: Level[] = [];

  constructor(readonly bid: boolean) {}

  best(): Level | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** Index of the first key >= `key`. */
  private lowerBound(key: number): number {
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length;
    // New orders mostly arrive near the top of the book: check the best end first.
    if (hi > 0 && keys[hi - 1]! < key) return hi;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The level at `price`, created in place if it does not exist. */
  levelAt(price: number): Level {
    const key = this.bid ? price : -price;
    const i = this.lowerBound(key);
    const keys = this.keys;
    if (i < keys.length && keys[i] === key) return this.levels[i]!;
    const level = this.pool.pop() ?? new Level();
    level.price = price;
    if (i === keys.length) {
      keys.push(key);
      this.levels.push(level);
    } else {
      keys.splice(i, 0, key);
      this.levels.splice(i, 0, level);
    }
    return level;
  }

  /** Removes an empty level. */
  removeLevel(level: Level): void {
    const last = this.levels.length - 1;
    if (this.levels[last] === level) {
      this.levels.pop();
      this.keys.pop();
    } else {
      const i = this.lowerBound(this.bid ? level.price : -level.price);
      this.levels.splice(i, 1);
      this.keys.splice(i, 1);
    }
    this.release(level);
  }

  /** Removes the best level, which the caller has just emptied. */
  popBest(): void {
    const level = this.levels.pop();
    this.keys.pop();
    if (level !== undefined) this.release(level);
  }

  private release(level: Level): void {
    level.head = null;
    level.tail = null;
    level.total = 0;
    level.count = 0;
    if (this.pool.length < 1024) this.pool.push(level);
  }
}
