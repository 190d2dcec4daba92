import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AdminPaths } from '@verdant/api';
import { describe, expect, it, vi } from 'vitest';
import { useQueues } from '../../shell/ConsoleLayout';
import { fetchStub, ok, refused, renderConsole } from '../../test/render';
import DepositsPage from './DepositsPage';
import KycPage from './KycPage';

const deposit = {
  id: 7,
  user_id: 3,
  user_account: 'alice@example.com',
  currency_id: 1,
  symbol: 'USDT',
  chain: 'TRC20',
  address: 'TXaddress',
  amount: '100',
  status: 'pending',
  reject_reason: null,
  reviewed_by: null,
  reviewed_at: null,
  created_at: '2026-11-25T10:00:00.000Z',
  image: '/api/admin/upload/v.png',
};

/** The deposits queue as the server keeps it: the deposit waits until a decision is taken. */
function depositsServer(decide: Record<string, (body: Record<string, unknown>) => unknown>) {
  let waiting = true;
  const answers: Parameters<typeof fetchStub>[0] = {
    [AdminPaths.deposits]: () =>
      ok({ items: waiting ? [deposit] : [], total: waiting ? 1 : 0, page: 1, limit: 20 }),
    [AdminPaths.queues]: () => ok({ kyc: 0, deposits: waiting ? 1 : 0, withdrawals: 0, launchpad: 0 }),
  };
  for (const [path, fn] of Object.entries(decide)) {
    answers[path] = async (body) => {
      const answer = await fn(body);
      if (answer === undefined) {
        waiting = false;
        return ok(null);
      }
      return answer as ReturnType<typeof ok>;
    };
  }
  const stub = fetchStub(answers);
  vi.stubGlobal('fetch', stub.fn);
  return stub;
}

/** The menu's count for the deposits queue, read the way the console's menu reads it. */
function DepositsCount() {
  const queues = useQueues('reviewer');
  return <p>deposits waiting: {queues.data?.deposits ?? '…'}</p>;
}

async function openDialog(button: 'Pass' | 'Reject') {
  const row = (await screen.findByText('alice@example.com')).closest('tr') as HTMLElement;
  fireEvent.click(within(row).getByRole('button', { name: button }));
  return screen.findByRole('dialog');
}

describe('review queue', () => {
  it('will not reject without a reason, and sends nothing', async () => {
    const stub = depositsServer({ [AdminPaths.rejectDeposit]: () => undefined });
    renderConsole(<DepositsPage />);
    const dialog = await openDialog('Reject');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Please fill this in.')).toBeTruthy();
    // spaces are no reason either: the message, gone while a letter is typed, comes back
    const reason = within(dialog).getByRole('textbox');
    fireEvent.change(reason, { target: { value: 'x' } });
    await waitFor(() => expect(within(dialog).queryByText('Please fill this in.')).toBeNull());
    fireEvent.change(reason, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Please fill this in.')).toBeTruthy();
    expect(stub.calls.some((c) => c.path === AdminPaths.rejectDeposit)).toBe(false);
  });

  it('disables the confirm button while the decision is out, so it is sent once', async () => {
    let answer: (v: undefined) => void = () => {};
    const stub = depositsServer({
      [AdminPaths.approveDeposit]: () => new Promise<undefined>((resolve) => (answer = resolve)),
    });
    renderConsole(<DepositsPage />);
    const dialog = await openDialog('Pass');
    const confirm = within(dialog).getByRole('button', { name: 'Pass' }) as HTMLButtonElement;
    fireEvent.click(confirm);
    await waitFor(() => expect(confirm.disabled).toBe(true));
    fireEvent.click(confirm);
    const sent = stub.calls.filter((c) => c.path === AdminPaths.approveDeposit);
    expect(sent).toEqual([{ path: AdminPaths.approveDeposit, body: { id: '7', amount: '100' } }]);
    answer(undefined);
    await waitFor(() => expect(screen.queryByText('alice@example.com')).toBeNull());
    expect(stub.calls.filter((c) => c.path === AdminPaths.approveDeposit)).toHaveLength(1);
  });

  it("shows the server's refusal in the dialog and keeps the request in the queue", async () => {
    depositsServer({ [AdminPaths.rejectDeposit]: () => refused('This deposit was decided already.') });
    renderConsole(<DepositsPage />);
    const dialog = await openDialog('Reject');
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'voucher unreadable' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('This deposit was decided already.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Reject' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(screen.getByText('alice@example.com')).toBeTruthy();
  });

  it("refreshes the menu's count and the list after a decision", async () => {
    const stub = depositsServer({ [AdminPaths.rejectDeposit]: () => undefined });
    renderConsole(
      <>
        <DepositsCount />
        <DepositsPage />
      </>,
    );
    expect(await screen.findByText('deposits waiting: 1')).toBeTruthy();
    const dialog = await openDialog('Reject');
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'voucher unreadable' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('deposits waiting: 0')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('alice@example.com')).toBeNull());
    expect(stub.calls.find((c) => c.path === AdminPaths.rejectDeposit)?.body).toEqual({
      id: '7',
      reason: 'voucher unreadable',
    });
  });

  it('passes an identity check after the popover confirms it, with nothing to type', async () => {
    const person = {
      id: 5,
      user_id: 3,
      user_account: 'bob@example.com',
      level: 'basic',
      name: 'Bob Example',
      id_number: 'X123',
      status: 'pending',
      created_at: '2026-11-25T10:00:00.000Z',
    };
    let decided = false;
    const stub = fetchStub({
      [AdminPaths.verifications]: () =>
        ok({ items: decided ? [] : [person], total: decided ? 0 : 1, page: 1, limit: 20 }),
      [AdminPaths.queues]: () => ok({ kyc: decided ? 0 : 1, deposits: 0, withdrawals: 0, launchpad: 0 }),
      [AdminPaths.approveVerification]: () => {
        decided = true;
        return ok(null);
      },
    });
    vi.stubGlobal('fetch', stub.fn);
    renderConsole(<KycPage />);
    const row = (await screen.findByText('bob@example.com')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Pass' }));
    expect(stub.calls.some((c) => c.path === AdminPaths.approveVerification)).toBe(false);
    const popover = await screen.findByRole('tooltip');
    fireEvent.click(within(popover).getByRole('button', { name: 'Pass' }));
    await waitFor(() => expect(screen.queryByText('bob@example.com')).toBeNull());
    expect(stub.calls.find((c) => c.path === AdminPaths.approveVerification)?.body).toEqual({ id: '5' });
  });
});
