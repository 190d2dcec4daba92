import { CONTRACT_STATUSES, type ContractStatus, type ContractSubmitBody } from '@verdant/api';
import { type ContractRule, type ContractSpec, checkLots, checkPrice, type Direction } from '@verdant/engine';
import { invalid } from '../../http/errors.ts';

// The contract requests' input, checked without the database or the current price (those checks,
// the limit's side and the stops' side, need the tick and stay with the service).

export const rule = (r: ContractRule, field: string, params: Record<string, string | number> = {}) =>
  invalid(`contract.${r}`, field, params);

export function parseId(input: string | undefined): string {
  const s = (input ?? '').trim();
  if (!/^[1-9]\d{0,17}$/.test(s)) throw invalid('contract.idInvalid', 'id');
  return s;
}

/** A price on the contract's tick grid, or null when left empty. */
export function optionalPrice(spec: ContractSpec, input: string | undefined, field: string): string | null {
  if (input === undefined || input.trim() === '') return null;
  const p = checkPrice(spec, input);
  if (p === null) throw invalid('contract.priceInvalid', field, { step: spec.tickSize });
  return p;
}

export interface SubmitInput {
  direction: Direction;
  type: 'market' | 'limit';
  lots: number;
  multiple: number;
  /** A limit order's price; null for a market position. */
  limit: string | null;
  takeProfit: string | null;
  stopLoss: string | null;
}

export function parseSubmit(spec: ContractSpec, body: ContractSubmitBody): SubmitInput {
  const direction = (body.direction ?? '').trim();
  if (direction !== 'long' && direction !== 'short') throw invalid('contract.directionInvalid', 'direction');
  const type = (body.type ?? '').trim() || 'market';
  if (type !== 'market' && type !== 'limit') throw invalid('contract.typeInvalid', 'type');
  const lots = checkLots(spec, body.lots);
  if (typeof lots !== 'number') throw rule(lots, 'lots', { max: spec.maxLotsPerOrder });
  const multiple = (body.multiple ?? '').trim();
  if (!/^\d{1,4}$/.test(multiple) || !spec.multiples.includes(Number(multiple)))
    throw invalid('contract.multipleInvalid', 'multiple', { multiples: spec.multiples.join(', ') });
  let limit: string | null = null;
  if (type === 'limit') {
    if (!body.price?.trim()) throw invalid('contract.priceRequired', 'price');
    limit = optionalPrice(spec, body.price, 'price');
  }
  return {
    direction,
    type,
    lots,
    multiple: Number(multiple),
    limit,
    takeProfit: optionalPrice(spec, body.take_profit, 'take_profit'),
    stopLoss: optionalPrice(spec, body.stop_loss, 'stop_loss'),
  };
}

/** Take-profit and stop-loss are set together or removed together. */
export function parseStops(
  spec: ContractSpec,
  body: { take_profit?: string; stop_loss?: string },
): { takeProfit: string | null; stopLoss: string | null } {
  const tp = optionalPrice(spec, body.take_profit, 'take_profit');
  const sl = optionalPrice(spec, body.stop_loss, 'stop_loss');
  if ((tp === null) !== (sl === null))
    throw invalid('contract.stopsRequired', tp === null ? 'take_profit' : 'stop_loss');
  return { takeProfit: tp, stopLoss: sl };
}

export function parseStatus(input: string | undefined): ContractStatus {
  const status = (input ?? '').trim() || 'holding';
  if (!(CONTRACT_STATUSES as readonly string[]).includes(status))
    throw invalid('contract.statusInvalid', 'status');
  return status as ContractStatus;
}

/** The symbol as markets spell it ("BTC/USDT", "btc_usdt" → "btcusdt"). */
export function symbolOf(input: string | undefined): string {
  if (!input?.trim()) throw invalid('contract.symbolRequired', 'symbol');
  return input
    .trim()
    .toLowerCase()
    .replace(/[/_\-\s]/g, '');
}
