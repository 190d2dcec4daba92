// The audit log as the console filters it: by operator, action, target and a date range, paged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { writeAudit } from './audit.ts';
import { operatorLogin } from './testing.ts';

let h: Harness;
let admin: { id: number; token: string };
beforeAll(async () => {
  h = await startHarness();
  admin = await operatorLogin(h, 'admin');
});
afterAll(() => h.close());

interface Page {
  items: { action: string; target_id: string | null; created_at: string }[];
  total: number;
  page: number;
  limit: number;
}
const audit = (q: Record<string, string>) => h.call<Page>('GET', 'admin/audit', q, { token: admin.token });

describe('the audit log filters', () => {
  it('a date range keeps the entries inside it, with action and target, in pages', async () => {
    // three entries on days of their own, far from today's
    for (const [day, target] of [
      ['2020-01-01T10:00:00Z', '1'],
      ['2020-01-02T10:00:00Z', '2'],
      ['2020-01-03T10:00:00Z', '3'],
    ] as const) {
      await writeAudit(h.app.ctx.db, {
        operatorId: admin.id,
        action: 'test.dated',
        targetType: 'thing',
        targetId: target,
        before: null,
        after: null,
        ip: null,
      });
      await h.app.ctx.db.query(
        `UPDATE audit_log SET created_at = $1 WHERE action = 'test.dated' AND target_id = $2`,
        [day, target],
      );
    }
    const range = await audit({
      action: 'test.dated',
      from: '2020-01-02T00:00:00Z',
      to: '2020-01-03T23:59:59Z',
    });
    expect(range.body.data.items.map((i) => i.target_id)).toEqual(['3', '2']);
    expect(range.body.data.total).toBe(2);
    const upTo = await audit({ action: 'test.dated', to: '2020-01-01T23:59:59Z' });
    expect(upTo.body.data.items.map((i) => i.target_id)).toEqual(['1']);
    const paged = await audit({ action: 'test.dated', limit: '2', page: '2' });
    expect(paged.body.data).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(paged.body.data.items.map((i) => i.target_id)).toEqual(['1']);
    const target = await audit({ target_type: 'thing', target_id: '2' });
    expect(target.body.data.items).toHaveLength(1);
    expect((await audit({ operator_id: String(admin.id), action: 'test.dated' })).body.data.total).toBe(3);
  });

  it('a date that is not one is refused on its field', async () => {
    const bad = await audit({ from: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: 'Please enter a valid date and time', field: 'from' });
  });
});
