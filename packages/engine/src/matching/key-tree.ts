/**
 * An ordered map from numeric keys to values: a B+ tree whose nodes hold at most `FANOUT` keys
 * (leaves) or children (inner nodes) and, the root aside, at least half as many. Lookup, insert and
 * delete descend one path, so each is O(log n) with a small base (three levels hold 30k keys, four
 * hold a million), and each node's keys are a short packed array searched by bisection.
 *
 * The book uses it to place a new price level next to its neighbour and to drop an emptied one;
 * the levels themselves are linked in price order (see BookSide), so walking the book never
 * touches the tree.
 */

const FANOUT = 32;
const HALF = FANOUT >> 1;

class Leaf<V> {
  readonly keys: number[] = [];
  readonly vals: V[] = [];
}

/** `keys[i]` separates `kids[i]` (all keys < it) from `kids[i + 1]` (all keys ≥ it). */
class Inner<V> {
  keys: number[] = [];
  kids: Node<V>[] = [];
}

type Node<V> = Leaf<V> | Inner<V>;

const sizeOf = <V>(n: Node<V>): number => (n instanceof Leaf ? n.keys.length : n.kids.length);

/** First index whose key is ≥ `key`. */
function lowerBound(keys: number[], key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose key is > `key`: the child of an inner node that may hold `key`. */
function upperBound(keys: number[], key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts `v` at `i`, shifting the tail by hand (`splice` would allocate the removed-items array). */
function insertAt<T>(a: T[], i: number, v: T): void {
  let j = a.length;
  a.push(v);
  for (; j > i; j--) a[j] = a[j - 1]!;
  a[i] = v;
}

function removeAt<T>(a: T[], i: number): void {
  const last = a.length - 1;
  for (let j = i; j < last; j++) a[j] = a[j + 1]!;
  a.pop();
}

export class KeyTree<V> {
  private root: Node<V> = new Leaf<V>();
  private count = 0;
  /** What the last insert found beside its key (see `insert`); fields, so inserting allocates nothing. */
  neighbour: V | undefined = undefined;
  below = false;
  /** The last `find`'s way down: inner nodes, the child taken in each, and where it ended. */
  private readonly path: Inner<V>[] = [];
  private readonly pathAt: number[] = [];
  private depth = 0;
  private leaf: Leaf<V> = this.root as Leaf<V>;
  private leafAt = 0;

  get size(): number {
    return this.count;
  }

  get(key: number): V | undefined {
    return this.find(key);
  }

  /**
   * Like `get`, and remembers the path it took, so that `insertFound` can add the key it did not
   * find without descending again (a new price level costs one descent, not two).
   */
  find(key: number): V | undefined {
    let node = this.root;
    let d = 0;
    while (node instanceof Inner) {
      const j = upperBound(node.keys, key);
      this.path[d] = node;
      this.pathAt[d] = j;
      d++;
      node = node.kids[j]!;
    }
    this.depth = d;
    this.leaf = node;
    const i = lowerBound(node.keys, key);
    this.leafAt = i;
    return node.keys[i] === key ? node.vals[i] : undefined;
  }

  /**
   * Adds `key` (which must not be present) and sets `neighbour` to a value next to it in key order: the one
   * just below it when that sits in the same leaf, else the one just above (`below` says which);
   * undefined only when the tree was empty. A non-root leaf is never empty, so one of the two is
   * always in the leaf the key lands in.
   */
  insert(key: number, val: V): void {
    this.find(key);
    this.insertFound(key, val);
  }

  /** `insert`, where the last call on this tree was a `find` of the same key that found nothing. */
  insertFound(key: number, val: V): void {
    const leaf = this.leaf;
    const i = this.leafAt;
    this.neighbour = undefined;
    this.below = false;
    if (i > 0) {
      this.neighbour = leaf.vals[i - 1];
      this.below = true;
    } else if (leaf.keys.length > 0) {
      this.neighbour = leaf.vals[0];
    }
    insertAt(leaf.keys, i, key);
    insertAt(leaf.vals, i, val);
    this.count++;
    if (leaf.keys.length <= FANOUT) return;
    // Split the leaf, then each full node on the way back up.
    const right = new Leaf<V>();
    right.keys.push(...leaf.keys.splice(HALF));
    right.vals.push(...leaf.vals.splice(HALF));
    let sep = right.keys[0]!;
    let split: Node<V> = right;
    for (let d = this.depth - 1; d >= 0; d--) {
      const node = this.path[d]!;
      const j = this.pathAt[d]!;
      insertAt(node.keys, j, sep);
      insertAt(node.kids, j + 1, split);
      if (node.kids.length <= FANOUT) return;
      // FANOUT + 1 children: the left keeps HALF + 1, the key between the halves moves up.
      const up = new Inner<V>();
      up.kids = node.kids.splice(HALF + 1);
      up.keys = node.keys.splice(HALF + 1);
      sep = node.keys.pop()!;
      split = up;
    }
    const root = new Inner<V>();
    root.keys.push(sep);
    root.kids.push(this.root, split);
    this.root = root;
  }

  /** Removes `key`; false if it was not there. */
  delete(key: number): boolean {
    if (!this.deleteIn(this.root, key)) return false;
    this.count--;
    const root = this.root;
    if (root instanceof Inner && root.kids.length === 1) this.root = root.kids[0]!;
    return true;
  }

  private deleteIn(node: Node<V>, key: number): boolean {
    if (node instanceof Leaf) {
      const i = lowerBound(node.keys, key);
      if (node.keys[i] !== key) return false;
      removeAt(node.keys, i);
      removeAt(node.vals, i);
      return true;
    }
    const j = upperBound(node.keys, key);
    const kid = node.kids[j]!;
    if (!this.deleteIn(kid, key)) return false;
    if (sizeOf(kid) < HALF) this.refill(node, j);
    return true;
  }

  /** `parent.kids[j]` has one entry too few: borrow one from a sibling, or merge with it. */
  private refill(parent: Inner<V>, j: number): void {
    const kid = parent.kids[j]!;
    const left = j > 0 ? parent.kids[j - 1]! : null;
    const right = j + 1 < parent.kids.length ? parent.kids[j + 1]! : null;
    if (left !== null && sizeOf(left) > HALF) {
      if (kid instanceof Leaf) {
        const l = left as Leaf<V>;
        kid.keys.unshift(l.keys.pop()!);
        kid.vals.unshift(l.vals.pop()!);
        parent.keys[j - 1] = kid.keys[0]!;
      } else {
        const l = left as Inner<V>;
        kid.kids.unshift(l.kids.pop()!);
        kid.keys.unshift(parent.keys[j - 1]!);
        parent.keys[j - 1] = l.keys.pop()!;
      }
      return;
    }
    if (right !== null && sizeOf(right) > HALF) {
      if (kid instanceof Leaf) {
        const r = right as Leaf<V>;
        kid.keys.push(r.keys.shift()!);
        kid.vals.push(r.vals.shift()!);
        parent.keys[j] = r.keys[0]!;
      } else {
        const r = right as Inner<V>;
        kid.kids.push(r.kids.shift()!);
        kid.keys.push(parent.keys[j]!);
        parent.keys[j] = r.keys.shift()!;
      }
      return;
    }
    // Both siblings at the minimum: merge the pair (HALF − 1 + HALF entries fit in one node).
    const i = left !== null ? j - 1 : j;
    const a = parent.kids[i]!;
    const b = parent.kids[i + 1]!;
    if (a instanceof Leaf) {
      const bl = b as Leaf<V>;
      a.keys.push(...bl.keys);
      a.vals.push(...bl.vals);
    } else {
      const bi = b as Inner<V>;
      a.keys.push(parent.keys[i]!, ...bi.keys);
      a.kids.push(...bi.kids);
    }
    removeAt(parent.keys, i);
    removeAt(parent.kids, i + 1);
  }

  /** Every entry in ascending key order (tests and diagnostics; allocates). */
  entries(): [number, V][] {
    const out: [number, V][] = [];
    const walk = (n: Node<V>) => {
      if (n instanceof Leaf) for (let i = 0; i < n.keys.length; i++) out.push([n.keys[i]!, n.vals[i]!]);
      else for (const k of n.kids) walk(k);
    };
    walk(this.root);
    return out;
  }

  /** Checks the tree's invariants (for tests); returns a description of the first one broken, or null. */
  check(): string | null {
    let leafDepth = -1;
    let seen = 0;
    const walk = (n: Node<V>, depth: number, lo: number, hi: number, isRoot: boolean): string | null => {
      const size = sizeOf(n);
      if (size > FANOUT) return `node of ${size} > ${FANOUT}`;
      if (!isRoot && size < HALF) return `node of ${size} < ${HALF}`;
      for (let i = 0; i < n.keys.length; i++) {
        const k = n.keys[i]!;
        if (k < lo || k >= hi) return `key ${k} outside [${lo}, ${hi})`;
        if (i > 0 && n.keys[i - 1]! >= k) return 'keys not ascending';
      }
      if (n instanceof Leaf) {
        if (n.vals.length !== n.keys.length) return 'keys and values differ in length';
        if (leafDepth < 0) leafDepth = depth;
        else if (leafDepth !== depth) return 'leaves at different depths';
        seen += n.keys.length;
        return null;
      }
      if (n.keys.length !== n.kids.length - 1) return 'inner keys ≠ children − 1';
      if (isRoot && n.kids.length < 2) return 'inner root with one child';
      for (let i = 0; i < n.kids.length; i++) {
        const bad = walk(
          n.kids[i]!,
          depth + 1,
          i === 0 ? lo : n.keys[i - 1]!,
          i === n.keys.length ? hi : n.keys[i]!,
          false,
        );
        if (bad !== null) return bad;
      }
      return null;
    };
    const bad = walk(this.root, 0, -Infinity, Infinity, true);
    if (bad !== null) return bad;
    return seen === this.count ? null : `size ${this.count} but ${seen} keys`;
  }
}
