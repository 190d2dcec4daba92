import type { DoneReason, EngineSink, OrderId } from './types.ts';

/** The engine's events as plain objects: what the server persists and applies to the ledger. */
export type EngineEvent =
  | { type: 'accepted'; id: OrderId; seq: number }
  | {
      type: 'fill';
      makerId: OrderId;
      takerId: OrderId;
      price: number;
      qty: number;
      makerRemaining: number;
      takerRemaining: number;
    }
  | { type: 'rested'; id: OrderId; price: number; remaining: number }
  | { type: 'done'; id: OrderId; reason: DoneReason; remaining: number };

/** A sink that records every event as an object; `take()` hands them over and starts afresh. */
export class EventLog implements EngineSink {
  events: EngineEvent[] = [];

  accepted(id: OrderId, seq: number): void {
    this.events.push({ type: 'accepted', id, seq });
  }

  fill(
    makerId: OrderId,
    takerId: OrderId,
    price: number,
    qty: number,
    makerRemaining: number,
    takerRemaining: number,
  ): void {
    this.events.push({ type: 'fill', makerId, takerId, price, qty, makerRemaining, takerRemaining });
  }

  rested(id: OrderId, price: number, remaining: number): void {
    this.events.push({ type: 'rested', id, price, remaining });
  }

  done(id: OrderId, reason: DoneReason, remaining: number): void {
    this.events.push({ type: 'done', id, reason, remaining });
  }

  take(): EngineEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }
}
