import type { AuditEntry } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { type Paging, pageOf } from '../../db/paging.ts';

export interface AuditInput {
  /** null when done from the command line */
  operatorId: number | null;
  /** what was done, e.g. 'deposit.approve' */
  action: string;
  targetType: string | null;
  targetId: string | number | null;
  /** snapshots of the target (rows as read from the database); dates become ISO strings */
  before: unknown;
  after: unknown;
  ip: string | null;
}

/** Appends one audit row; call it inside the transaction that makes the change. */
export async function writeAudit(q: Queryable, a: AuditInput): Promise<void> {
  await q.query(
    `INSERT INTO audit_log (operator_id, action, target_type, target_id, before, after, ip)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)`,
    [
      a.operatorId,
      a.action,
      a.targetType,
      a.targetId === null ? null : String(a.targetId),
      a.before === null || a.before === undefined ? null : JSON.stringify(a.before),
      a.after === null || a.after === undefined ? null : JSON.stringify(a.after),
      a.ip,
    ],
  );
}

interface AuditRow {
  id: string;
  operator_id: number | null;
  operator_username: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  created_at: Date;
}

export interface AuditFilter {
  operatorId?: number | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** Newest first, filtered, one page. */
export async function listAudit(
  q: Queryable,
  f: AuditFilter,
  page: Paging,
): Promise<{ items: AuditEntry[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (f.operatorId !== undefined) add('a.operator_id = ?', f.operatorId);
  if (f.action) add('a.action = ?', f.action);
  if (f.targetType) add('a.target_type = ?', f.targetType);
  if (f.targetId) add('a.target_id = ?', f.targetId);
  if (f.from) add('a.created_at >= ?', f.from);
  if (f.to) add('a.created_at <= ?', f.to);
  const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const { rows, total } = await pageOf<AuditRow>(
    q,
    {
      count: `SELECT count(*)::int AS n FROM audit_log a ${cond}`,
      list: `SELECT a.id::text, a.operator_id, o.username AS operator_username, a.action, a.target_type,
                    a.target_id, a.before, a.after, a.ip, a.created_at
               FROM audit_log a LEFT JOIN operators o ON o.id = a.operator_id
               ${cond}
              ORDER BY a.id DESC`,
    },
    params,
    page,
  );
  return {
    total,
    items: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
  };
}
