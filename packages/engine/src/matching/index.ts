export { type EngineEvent, EventLog } from './event-log.ts';
export { OrderBook } from './order-book.ts';
export type {
  Command,
  Depth,
  DepthLevel,
  DoneReason,
  EngineSink,
  OrderId,
  OwnerId,
  Reject,
  RestingOrder,
  Side,
  SweepCost,
} from './types.ts';
