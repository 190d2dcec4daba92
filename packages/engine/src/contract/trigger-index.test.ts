import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Fired, type Trigger, TriggerIndex } from './trigger-index.ts';

describe('trigger index', () => {
  it('fires a long stop-loss at the first tick at or below it and a take-profit at or above', () => {
    const ix = new TriggerIndex();
    ix.set(1, [
      { kind: 'take_profit', crossing: 'up', level: 110 },
      { kind: 'stop_loss', crossing: 'down', level: 95 },
      { kind: 'liquidation', crossing: 'down', level: 90 },
    ]);
    ix.set(2, [
      { kind: 'take_profit', crossing: 'up', level: 120 },
      { kind: 'stop_loss', crossing: 'down', level: 99 },
    ]);
    expect(ix.tick(100)).toEqual([]);
    expect(ix.tick(99)).toEqual([{ id: 2, kind: 'stop_loss' }]);
    expect(ix.has(2)).toBe(false);
    expect(ix.tick(96)).toEqual([]);
    // a gap below both the stop-loss and the liquidation: the user's stop-loss settles it
    expect(ix.tick(80)).toEqual([{ id: 1, kind: 'stop_loss' }]);
    expect(ix.size).toBe(0);
  });

  it('answers fired positions in id order and forgets them', () => {
    const ix = new TriggerIndex();
    ix.set(9, [{ kind: 'limit', crossing: 'up', level: 105 }]);
    ix.set(3, [{ kind: 'liquidation', crossing: 'up', level: 101 }]);
    ix.set(5, [{ kind: 'take_profit', crossing: 'up', level: 103 }]);
    expect(ix.tick(110)).toEqual([
      { id: 3, kind: 'liquidation' },
      { id: 5, kind: 'take_profit' },
      { id: 9, kind: 'limit' },
    ]);
    expect(ix.tick(110)).toEqual([]);
  });

  it('set replaces a position’s triggers and remove drops them', () => {
    const ix = new TriggerIndex();
    ix.set(1, [{ kind: 'stop_loss', crossing: 'down', level: 95 }]);
    ix.set(1, [{ kind: 'stop_loss', crossing: 'down', level: 90 }]);
    expect(ix.tick(94)).toEqual([]);
    expect(ix.remove(1)).toBe(true);
    expect(ix.tick(10)).toEqual([]);
    expect(ix.remove(1)).toBe(false);
  });

  it('fires exactly what a scan of every trigger would, in any sequence of changes and ticks', () => {
    const trig = fc.record({
      kind: fc.constantFrom(
        'take_profit' as const,
        'stop_loss' as const,
        'liquidation' as const,
        'limit' as const,
      ),
      crossing: fc.constantFrom('down' as const, 'up' as const),
      level: fc.integer({ min: 80, max: 120 }),
    });
    const op = fc.oneof(
      fc.record({
        k: fc.constant('set' as const),
        id: fc.integer({ min: 1, max: 40 }),
        t: fc.array(trig, { maxLength: 3 }),
      }),
      fc.record({ k: fc.constant('remove' as const), id: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ k: fc.constant('tick' as const), price: fc.integer({ min: 75, max: 125 }) }),
    );
    const rank = { take_profit: 0, stop_loss: 1, limit: 2, liquidation: 3 };
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 300 }), (ops) => {
        const ix = new TriggerIndex();
        const ref = new Map<number, Trigger[]>();
        for (const o of ops) {
          if (o.k === 'set') {
            ix.set(o.id, o.t);
            if (o.t.length > 0) ref.set(o.id, o.t);
            else ref.delete(o.id);
          } else if (o.k === 'remove') {
            expect(ix.remove(o.id)).toBe(ref.delete(o.id));
          } else {
            const want: Fired[] = [];
            for (const [id, ts] of [...ref].sort((a, b) => a[0] - b[0])) {
              const hits = ts.filter((t) =>
                t.crossing === 'down' ? o.price <= t.level : o.price >= t.level,
              );
              if (hits.length === 0) continue;
              hits.sort((a, b) => rank[a.kind] - rank[b.kind]);
              want.push({ id, kind: hits[0]!.kind });
              ref.delete(id);
            }
            expect(ix.tick(o.price)).toEqual(want);
          }
          expect(ix.size).toBe(ref.size);
        }
      }),
      { numRuns: 300 },
    );
  });
});
