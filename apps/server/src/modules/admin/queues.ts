import type { AdminQueues } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { adminService } from './service.ts';

/**
 * The waiting count of each review queue (the menu's badges), each read through the list its
 * owner serves: one row asked for, the total kept.
 */
export async function queueCounts(app: FastifyInstance): Promise<AdminQueues> {
  const admin = adminService(app.ctx);
  const one = { page: '1', limit: '1' };
  const [kyc, deposits, withdrawals, launchpad] = await Promise.all([
    admin.verifications({ status: 'pending', ...one }, 'en'),
    admin.deposits({ status: 'pending', ...one }),
    admin.withdrawals({ status: 'pending', ...one }),
    app.launchpad.adminList({ status: 'review', ...one }),
  ]);
  return {
    kyc: kyc.total,
    deposits: deposits.total,
    withdrawals: withdrawals.total,
    launchpad: launchpad.total,
  };
}
