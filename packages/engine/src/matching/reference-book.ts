/**
 * A deliberately naive order book for tests only: one array of resting orders, sorted on every
 * match. It states the matching rules as plainly as possible, and the property tests check that
 * `OrderBook` emits exactly the same events. Not exported from the package.
 */
import type { EngineEvent } from './event-log.ts';
import type { Command, OrderId, Reject, RestingOrder } from './types.ts';

const okCount = (v: number) => Number.isSafeInteger(v) && v > 0;

export class ReferenceBook {
  resting: RestingOrder[] = [];
  seq = 0;

  apply(cmd: Command, out: EngineEvent[]): Reject | null {
    if (cmd.type === 'cancel') {
      const i = this.resting.findIndex((o) => o.id === cmd.id);
      if (i < 0) return 'unknown_order';
      const [o] = this.resting.splice(i, 1);
      out.push({ type: 'done', id: cmd.id, reason: 'cancelled', remaining: o!.remaining });
      return null;
    }
    const side = cmd.type === 'market_amount' ? 'buy' : cmd.side;
    if (cmd.type !== 'market_amount' && !okCount(cmd.qty)) return 'invalid_qty';
    if (this.resting.some((o) => o.id === cmd.id)) return 'duplicate_id';
    if (cmd.type === 'limit' && !okCount(cmd.price)) return 'invalid_price';
    if (cmd.type === 'market_amount' && !okCount(cmd.amount)) return 'invalid_amount';
    const seq = ++this.seq;
    out.push({ type: 'accepted', id: cmd.id, seq });

    const buy = side === 'buy';
    const makers = this.resting
      .filter((o) => o.side !== side)
      .sort((a, b) => (a.price === b.price ? a.seq - b.seq : buy ? a.price - b.price : b.price - a.price));
    const gone = new Set<OrderId>();
    const byAmount = cmd.type === 'market_amount';
    let left = byAmount ? cmd.amount : cmd.qty;
    let traded = false;
    let bounded = false;
    let lastPrice = 0;
    for (const m of makers) {
      if (left === 0) break;
      if (cmd.type === 'limit' && (buy ? m.price > cmd.price : m.price < cmd.price)) break;
      lastPrice = m.price;
      const canTake = byAmount ? Number(BigInt(left) / BigInt(m.price)) : left;
      if (canTake === 0) {
        bounded = true;
        break;
      }
      if (m.owner === cmd.owner) {
        gone.add(m.id);
        out.push({ type: 'done', id: m.id, reason: 'self_trade', remaining: m.remaining });
        continue;
      }
      const q = Math.min(m.remaining, canTake);
      m.remaining -= q;
      left -= byAmount ? q * m.price : q;
      traded = true;
      out.push({
        type: 'fill',
        makerId: m.id,
        takerId: cmd.id,
        price: m.price,
        qty: q,
        makerRemaining: m.remaining,
        takerRemaining: left,
      });
      if (m.remaining === 0) {
        gone.add(m.id);
        out.push({ type: 'done', id: m.id, reason: 'filled', remaining: 0 });
      }
    }
    this.resting = this.resting.filter((o) => !gone.has(o.id));

    if (byAmount) {
      if (!bounded && lastPrice > 0 && left < lastPrice) bounded = true;
      out.push({
        type: 'done',
        id: cmd.id,
        reason: traded && bounded ? 'filled' : 'unfilled',
        remaining: left,
      });
    } else if (left === 0) {
      out.push({ type: 'done', id: cmd.id, reason: 'filled', remaining: 0 });
    } else if (cmd.type === 'market') {
      out.push({ type: 'done', id: cmd.id, reason: 'unfilled', remaining: left });
    } else {
      this.resting.push({ id: cmd.id, owner: cmd.owner, side, price: cmd.price, remaining: left, seq });
      out.push({ type: 'rested', id: cmd.id, price: cmd.price, remaining: left });
    }
    return null;
  }
}
