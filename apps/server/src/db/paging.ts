import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '@verdant/api';
import { invalid } from '../http/errors.ts';
import type { Queryable } from './client.ts';

/** `page` and `limit` as a form or query string carries them. */
export interface PageInput {
  page?: string | undefined;
  limit?: string | undefined;
}

export interface Paging {
  page: number;
  limit: number;
  offset: number;
}

function whole(input: string | undefined, fallback: number, max: number, field: string): number {
  const s = (input ?? '').trim();
  if (s === '') return fallback;
  if (!/^\d{1,9}$/.test(s)) throw invalid('validation.pageInvalid', field);
  const n = Number(s);
  if (n < 1 || n > max) throw invalid('validation.pageInvalid', field);
  return n;
}

/** Page from 1, limit 1 to PAGE_LIMIT_MAX (default PAGE_LIMIT_DEFAULT); anything else is a clear error naming the field. */
export function parsePaging(input: PageInput): Paging {
  const page = whole(input.page, 1, 1_000_000, 'page');
  const limit = whole(input.limit, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, 'limit');
  return { page, limit, offset: (page - 1) * limit };
}

/**
 * One page of rows and the total they come from. `countSql` and `listSql` share `params`;
 * LIMIT and OFFSET are appended to `listSql` as the next two parameters.
 */
export async function pageOf<T>(
  q: Queryable,
  sql: { count: string; list: string },
  params: readonly unknown[],
  paging: Paging,
): Promise<{ rows: T[]; total: number }> {
  const [count] = await q.query<{ n: number }>(sql.count, params);
  const rows = await q.query<T>(`${sql.list} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
    ...params,
    paging.limit,
    paging.offset,
  ]);
  return { rows, total: count?.n ?? 0 };
}
