import type { OperatorRow } from '@verdant/api';
import type { Db, Queryable } from '../../db/client.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { hashPassword } from '../../http/passwords.ts';
import { writeAudit } from './audit.ts';
import { checkPassword, listOperators, type OperatorSession } from './operators.ts';

/**
 * An admin manages the other operators from the console: disable or enable, reset a password
 * (a temporary one the operator must change at the next login) or the second factor (enrolled
 * again at the next login). Each ends the operator's sessions and is audited in its transaction.
 */

function parseOperatorId(v: string | undefined): number {
  const s = (v ?? '').trim();
  if (!s) throw invalid('admin.operatorRequired', 'id');
  if (!/^\d{1,9}$/.test(s)) throw new AppError('NOT_FOUND', 'admin.operatorNotFound', {}, 'id');
  return Number(s);
}

async function one(q: Queryable, id: number): Promise<OperatorRow> {
  const found = (await listOperators(q)).find((o) => o.id === id);
  if (!found) throw new AppError('NOT_FOUND', 'admin.operatorNotFound', {}, 'id');
  return found;
}

async function endSessions(q: Queryable, id: number): Promise<void> {
  await q.query(
    'UPDATE operator_sessions SET revoked_at = now() WHERE operator_id = $1 AND revoked_at IS NULL',
    [id],
  );
}

export async function disableOperator(
  db: Db,
  by: OperatorSession,
  ip: string,
  body: { id?: string | undefined; disabled?: string | undefined },
): Promise<OperatorRow> {
  const id = parseOperatorId(body.id);
  const flag = (body.disabled ?? '').trim();
  if (flag !== '1' && flag !== '0') throw invalid('admin.disabledInvalid', 'disabled');
  const disabled = flag === '1';
  // an admin locking themselves out would leave nobody able to undo it from the console
  if (disabled && id === by.id) throw new AppError('CONFLICT', 'admin.notYourself', {}, 'id');
  return db.tx(async (q) => {
    const before = await one(q, id);
    await q.query('UPDATE operators SET disabled = $2 WHERE id = $1', [id, disabled]);
    if (disabled) await endSessions(q, id);
    const after = await one(q, id);
    await writeAudit(q, {
      operatorId: by.id,
      action: disabled ? 'operator.disable' : 'operator.enable',
      targetType: 'operator',
      targetId: id,
      before: { disabled: before.disabled },
      after: { disabled: after.disabled },
      ip,
    });
    return after;
  });
}

export async function resetOperatorPassword(
  db: Db,
  by: OperatorSession,
  ip: string,
  body: { id?: string | undefined; password?: string | undefined },
): Promise<OperatorRow> {
  const id = parseOperatorId(body.id);
  const hash = await hashPassword(checkPassword(body.password));
  return db.tx(async (q) => {
    await one(q, id);
    await q.query('UPDATE operators SET password_hash = $2, must_change_password = true WHERE id = $1', [
      id,
      hash,
    ]);
    await endSessions(q, id);
    const after = await one(q, id);
    await writeAudit(q, {
      operatorId: by.id,
      action: 'operator.reset_password',
      targetType: 'operator',
      targetId: id,
      before: null,
      after: { must_change_password: true },
      ip,
    });
    return after;
  });
}

/** `by` null: from the command line (an admin who lost their authenticator, with no other admin). */
export async function resetOperatorTotp(
  db: Db,
  by: Pick<OperatorSession, 'id'> | null,
  ip: string | null,
  body: { id?: string | undefined },
): Promise<OperatorRow> {
  const id = parseOperatorId(body.id);
  return db.tx(async (q) => {
    const before = await one(q, id);
    await q.query(
      `UPDATE operators SET totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL,
              totp_last_step = NULL WHERE id = $1`,
      [id],
    );
    await endSessions(q, id);
    const after = await one(q, id);
    await writeAudit(q, {
      operatorId: by?.id ?? null,
      action: 'operator.reset_totp',
      targetType: 'operator',
      targetId: id,
      before: { totp_enabled: before.totp_enabled },
      after: { totp_enabled: false },
      ip,
    });
    return after;
  });
}
