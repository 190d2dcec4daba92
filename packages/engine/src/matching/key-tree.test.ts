import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyTree } from './key-tree.ts';

/** Index of the first key ≥ `key` in a sorted array. */
const lowerBound = (keys: number[], key: number) => {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

describe('KeyTree', () => {
  it('agrees with a sorted array through any run of inserts and deletes, its invariants kept', () => {
    // A key space of a few thousand and runs of several thousand operations: the tree grows to
    // three levels, and deletes make nodes borrow from and merge with their siblings.
    const op = fc.record({ insert: fc.boolean(), key: fc.integer({ min: -1500, max: 1500 }) });
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 1, maxLength: 3000, size: 'max' }),
        fc.integer({ min: 0, max: 9 }),
        (ops, bias) => {
          const tree = new KeyTree<string>();
          const model: number[] = [];
          ops.forEach(({ insert, key }, i) => {
            const at = lowerBound(model, key);
            const present = model[at] === key;
            // Grow first, then shrink (bias decides where), so both phases reach deep trees.
            if (insert && i < (ops.length * (bias + 5)) / 10) {
              if (present) return;
              tree.insert(key, `v${key}`);
              const { neighbour, below } = tree;
              // The neighbour is the value next below the key or next above it (`below` says
              // which), none only in an empty tree.
              const expected =
                model.length === 0
                  ? undefined
                  : below
                    ? at > 0
                      ? `v${model[at - 1]}`
                      : 'nothing below'
                    : at < model.length
                      ? `v${model[at]}`
                      : 'nothing above';
              if (neighbour !== expected)
                expect({ key, below, neighbour }).toEqual({ key, below, neighbour: expected });
              model.splice(at, 0, key);
            } else {
              expect(tree.delete(key)).toBe(present);
              if (present) model.splice(at, 1);
            }
            // (a plain comparison: an expect() per operation would dominate the run)
            const got = tree.get(key);
            if (got !== (model[lowerBound(model, key)] === key ? `v${key}` : undefined))
              expect({ key, got }).toEqual({ key, got: 'as in the model' });
          });
          expect(tree.check()).toBeNull();
          expect(tree.size).toBe(model.length);
          expect(tree.entries().map(([k]) => k)).toEqual(model);
          for (const k of model) expect(tree.get(k)).toBe(`v${k}`);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('empties completely and can be filled again', () => {
    const tree = new KeyTree<number>();
    for (let k = 0; k < 5000; k++) tree.insert(k * 7 - 9000, k);
    expect(tree.check()).toBeNull();
    for (let k = 0; k < 5000; k += 2) expect(tree.delete(k * 7 - 9000)).toBe(true);
    expect(tree.check()).toBeNull();
    for (let k = 1; k < 5000; k += 2) expect(tree.delete(k * 7 - 9000)).toBe(true);
    expect(tree.size).toBe(0);
    expect(tree.check()).toBeNull();
    tree.insert(1, 1);
    expect(tree.neighbour).toBeUndefined();
    expect(tree.entries()).toEqual([[1, 1]]);
  });
});
