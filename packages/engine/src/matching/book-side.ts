import { KeyTree } from './key-tree.ts';
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
  /** The next price away from the top of the book (null: the last level of its side). */
  worse: Level | null = null;
  /** The next price toward the top of the book (null: the best level of its side). */
  better: Level | null = null;

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
 * One side of a book: its levels linked from the best price to the worst (matching consumes the
 * best and walks `worse`; the best is held, so reading it is O(1)), and a B+ tree from each price's
 * sort key to its level (the price for bids, minus the price for asks: larger is better), through
 * which a new level finds its place beside its neighbour and an emptied one leaves, each in
 * O(log levels).
 */
export class BookSide {
  /** The best level, or null when the side is empty. */
  best: Level | null = null;
  /** Lots resting on this side. */
  total = 0;
  private readonly index = new KeyTree<Level>();
  private readonly pool: Level[] = [];

  constructor(readonly bid: boolean) {}

  /** Number of price levels. */
  get levelCount(): number {
    return this.index.size;
  }

  /** The level at `price`, created in place if it does not exist. */
  levelAt(price: number): Level {
    const best = this.best;
    // Most orders join the top of the book.
    if (best !== null && best.price === price) return best;
    const key = this.bid ? price : -price;
    const index = this.index;
    const found = index.find(key);
    if (found !== undefined) return found;
    const level = this.pool.pop() ?? new Level();
    level.price = price;
    index.insertFound(key, level);
    const { neighbour, below } = index;
    if (neighbour === undefined) {
      this.best = level;
    } else if (below) {
      // `neighbour` is the next worse price: `level` goes right above it.
      const up = neighbour.better;
      level.worse = neighbour;
      level.better = up;
      neighbour.better = level;
      if (up === null) this.best = level;
      else up.worse = level;
    } else {
      // `neighbour` is the next better price: `level` goes right below it.
      const down = neighbour.worse;
      level.better = neighbour;
      level.worse = down;
      neighbour.worse = level;
      if (down !== null) down.better = level;
    }
    return level;
  }

  /** Removes a level its caller has just emptied (the best one or any other). */
  removeLevel(level: Level): void {
    const { better, worse } = level;
    if (better === null) this.best = worse;
    else better.worse = worse;
    if (worse !== null) worse.better = better;
    this.index.delete(this.bid ? level.price : -level.price);
    this.release(level);
  }

  private release(level: Level): void {
    level.head = null;
    level.tail = null;
    level.total = 0;
    level.count = 0;
    level.better = null;
    level.worse = null;
    if (this.pool.length < 1024) this.pool.push(level);
  }

  /** The tree's own invariants and its agreement with the linked levels (tests only). */
  check(): string | null {
    const bad = this.index.check();
    if (bad !== null) return bad;
    const fromTree = this.index.entries().map(([, l]) => l);
    const fromList: Level[] = [];
    for (let l = this.best; l !== null; l = l.worse) {
      if (l.worse !== null && l.worse.better !== l) return 'worse/better links disagree';
      fromList.push(l);
    }
    fromList.reverse();
    if (fromList.length !== fromTree.length) return 'list and tree differ in length';
    for (let i = 0; i < fromList.length; i++) if (fromList[i] !== fromTree[i]) return 'list and tree differ';
    return null;
  }
}
