import type { Queryable } from '../../db/client.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { FUND_PASSWORD_RE } from '../../http/parse.ts';
import { verifyPassword } from '../../http/passwords.ts';

/** What a fund-password check reads of its user. */
export interface FundState {
  fund_password_hash: string | null;
  fund_locked_seconds: number | null;
}

function fundLocked(seconds: number, field: string): AppError {
  return new AppError(
    'FUND_PASSWORD_LOCKED',
    'fund.locked',
    { minutes: Math.max(1, Math.ceil(seconds / 60)) },
    field,
  );
}

/**
 * Fund-password checks of one user run one at a time in this process. The count is already
 * taken atomically in the database, which caps guesses even across processes; without this
 * queue, parallel requests with the right password (several withdrawals at once) could meet
 * the lock that a fifth attempt sets before its comparison has cleared it.
 */
const fundQueues = new WeakMap<object, Map<number, Promise<void>>>();
export async function oneAtATime<T>(scope: object, userId: number, fn: () => Promise<T>): Promise<T> {
  let queues = fundQueues.get(scope);
  if (!queues) {
    queues = new Map();
    fundQueues.set(scope, queues);
  }
  const run = (queues.get(userId) ?? Promise.resolve()).then(fn);
  const tail = run.then(
    () => {},
    () => {},
  );
  queues.set(userId, tail);
  try {
    return await run;
  } finally {
    if (queues.get(userId) === tail) queues.delete(userId);
  }
}

/**
 * One fund-password check (see the user service's `verifyFundPassword`): counts the attempt
 * atomically, locks after `maxFailures`, clears the count on success.
 */
export async function checkFundPassword(
  db: Queryable,
  limits: { maxFailures: number; lockMinutes: number },
  userId: number,
  input: string | undefined,
  field: string,
  byId: (userId: number) => Promise<FundState>,
): Promise<void> {
  if (!input) {
    const user = await byId(userId);
    if (!user.fund_password_hash) throw new AppError('FUND_PASSWORD_UNSET', 'fund.unset', {}, field);
    if (user.fund_locked_seconds !== null) throw fundLocked(user.fund_locked_seconds, field);
    throw invalid('validation.fundPasswordRequired', field);
  }
  // a lock that has run out starts a fresh count; the attempt that reaches the maximum sets it
  const [taken] = await db.query<{ hash: string; failures: number }>(
    `UPDATE users SET
        fund_password_failures = CASE WHEN fund_password_locked_until IS NULL
                                      THEN fund_password_failures + 1 ELSE 1 END,
        fund_password_locked_until =
          CASE WHEN (CASE WHEN fund_password_locked_until IS NULL
                          THEN fund_password_failures + 1 ELSE 1 END) >= $2
               THEN now() + make_interval(mins => $3) END
      WHERE id = $1 AND fund_password_hash IS NOT NULL
        AND (fund_password_locked_until IS NULL OR fund_password_locked_until <= now())
      RETURNING fund_password_hash AS hash, fund_password_failures AS failures`,
    [userId, limits.maxFailures, limits.lockMinutes],
  );
  if (!taken) {
    const user = await byId(userId);
    if (!user.fund_password_hash) throw new AppError('FUND_PASSWORD_UNSET', 'fund.unset', {}, field);
    throw fundLocked(user.fund_locked_seconds ?? 0, field);
  }
  if (FUND_PASSWORD_RE.test(input) && (await verifyPassword(taken.hash, input))) {
    await db.query(
      'UPDATE users SET fund_password_failures = 0, fund_password_locked_until = NULL WHERE id = $1',
      [userId],
    );
    return;
  }
  const left = limits.maxFailures - taken.failures;
  if (left <= 0) throw fundLocked(limits.lockMinutes * 60, field);
  throw new AppError('FUND_PASSWORD_WRONG', 'fund.wrong', { left }, field);
}
