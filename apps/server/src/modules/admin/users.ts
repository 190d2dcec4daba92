import {
  type AdminFreezeBody,
  type AdminUser,
  type AdminUserDetail,
  FREEZE_TARGETS,
  type FreezeTargetName,
} from '@verdant/api';
import type { Db } from '../../db/client.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { parseReason } from '../../http/parse.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import { userContractPositions } from '../contract/service.ts';
import { userOptionOrders } from '../option/service.ts';
import { userSpotOrders } from '../spot/service.ts';
import { userTrustOrders } from '../trust/service.ts';
import { setFrozen, type UserListRow, type UserProfile, userControls, userProfile } from '../user/service.ts';
import { demoFundsOf } from '../wallet/service.ts';
import { writeAudit } from './audit.ts';
import type { OperatorSession } from './operators.ts';

// The operators' view of one user and the freezes (issue 23): each part read through its module.

const REASON_KEYS = { required: 'admin.freezeReasonRequired', tooLong: 'admin.reasonTooLong' };

type ListedUser = Pick<UserListRow, 'id' | 'nickname' | 'verification' | 'advanced_verification'> &
  Pick<UserProfile, 'area_code' | 'mobile' | 'email' | 'status' | 'withdraw_frozen' | 'invite_code'> & {
    account: string;
    created_at: Date;
    last_login_at: Date | null;
  };

export function toAdminUser(r: ListedUser): AdminUser {
  return {
    id: r.id,
    nickname: r.nickname,
    account: r.account,
    area_code: r.area_code,
    mobile: r.mobile,
    email: r.email,
    verification: r.verification,
    advanced_verification: r.advanced_verification,
    status: r.status,
    withdraw_frozen: r.withdraw_frozen,
    invite_code: r.invite_code,
    created_at: r.created_at.toISOString(),
    last_login_at: r.last_login_at?.toISOString() ?? null,
  };
}

const iso = <T extends { created_at: Date }>(r: T) => ({ ...r, created_at: r.created_at.toISOString() });

/** Everything the user-detail page shows; `balances` comes from the admin service's own reader. */
export async function userDetail(
  db: Db,
  userId: number,
  balances: AdminUserDetail['balances'],
): Promise<AdminUserDetail> {
  const p = await userProfile(db, userId);
  if (!p) throw new AppError('NOT_FOUND', 'admin.userNotFound', {}, 'user_id');
  const [spot, contracts, options, trust, demo, currencies] = await Promise.all([
    userSpotOrders(db, userId),
    userContractPositions(db, userId),
    userOptionOrders(db, userId),
    userTrustOrders(db, userId),
    demoFundsOf(db, userId),
    currenciesById(db),
  ]);
  return {
    user: toAdminUser(p),
    lang: p.lang,
    last_login_ip: p.last_login_ip,
    invited_by: p.invited_by,
    inviter_account: p.inviter_account,
    invitee_count: p.invitee_count,
    invitees: p.invitees.map(iso),
    balances,
    spot_orders: spot.map(iso),
    contract_positions: contracts.map(iso),
    option_orders: options.map(iso),
    trust_orders: trust.map(iso),
    demo_funds: demo
      ? {
          amount: demo.amount,
          symbol: currencies.get(demo.currency_id)?.symbol ?? '',
          created_at: demo.created_at.toISOString(),
        }
      : null,
  };
}

function parseTarget(v: string | undefined): FreezeTargetName {
  const s = (v ?? '').trim().toLowerCase();
  if ((FREEZE_TARGETS as readonly string[]).includes(s)) return s as FreezeTargetName;
  throw invalid('admin.freezeTargetInvalid', 'target');
}

/**
 * Freeze or unfreeze a user's login or withdrawals, with a reason, audited as `user.freeze` /
 * `user.unfreeze`. Freezing what is frozen already changes nothing and writes no audit row.
 */
export async function freezeUser(
  db: Db,
  userId: number,
  frozen: boolean,
  op: OperatorSession,
  ip: string,
  body: Pick<AdminFreezeBody, 'target' | 'reason'>,
) {
  const target = parseTarget(body.target);
  const reason = parseReason(body.reason, REASON_KEYS);
  return db.tx(async (q) => {
    const before = await userControls(q, userId, true);
    if (!before) throw new AppError('NOT_FOUND', 'admin.userNotFound', {}, 'user_id');
    const now = target === 'login' ? before.status === 'disabled' : before.withdraw_frozen;
    if (now === frozen) return before;
    const after = await setFrozen(q, userId, target, frozen);
    await writeAudit(q, {
      operatorId: op.id,
      action: frozen ? 'user.freeze' : 'user.unfreeze',
      targetType: 'user',
      targetId: userId,
      before: { ...before, target, reason },
      after: { ...after, target, reason },
      ip,
    });
    return after;
  });
}
