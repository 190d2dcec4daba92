import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AdminConfigPaths, type ConfigCurrency } from '@verdant/api';
import { describe, expect, it, vi } from 'vitest';
import { fetchStub, ok, renderConsole } from '../../test/render';
import CurrenciesPage from './CurrenciesPage';

const usdt: ConfigCurrency = {
  id: 3,
  symbol: 'USDT',
  name: 'Tether USD',
  decimals: 6,
  chains: ['TRC20', 'OMNI', 'ERC20'],
  chains_off: ['OMNI'],
  is_fiat: false,
  min_deposit: '10',
  min_withdraw: '105',
  withdraw_fee: '1',
  can_deposit: true,
  can_withdraw: true,
};

async function editUsdt() {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit USDT' }));
  return screen.findByRole('dialog');
}

async function saveAndConfirm(drawer: HTMLElement) {
  fireEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
  await screen.findAllByText('Save this change?');
  // the confirmation's own Save comes after the drawer's
  const saves = screen.getAllByRole('button', { name: 'Save' });
  fireEvent.click(saves[saves.length - 1]!);
}

describe('currencies: chain switches', () => {
  it('shows which chains are off, and sends the chains switched off', async () => {
    const stub = fetchStub({
      [AdminConfigPaths.currencies]: ok([usdt]),
      [AdminConfigPaths.saveCurrency]: (body) =>
        ok({ ...usdt, chains_off: String(body.chains_off).split(',') }),
    });
    vi.stubGlobal('fetch', stub.fn);
    renderConsole(<CurrenciesPage />);
    expect(await screen.findByText('TRC20, OMNI (off), ERC20')).toBeTruthy();
    const drawer = await editUsdt();
    const omni = await within(drawer).findByRole('switch', { name: 'OMNI on' });
    expect(omni.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(within(drawer).getByRole('switch', { name: 'ERC20 on' }));
    fireEvent.click(omni);
    await saveAndConfirm(drawer);
    await waitFor(() => expect(stub.calls.some((c) => c.path === AdminConfigPaths.saveCurrency)).toBe(true));
    expect(stub.calls.find((c) => c.path === AdminConfigPaths.saveCurrency)!.body).toMatchObject({
      id: '3',
      chains_off: 'ERC20',
    });
  });

  it("shows the server's refusal at the chains", async () => {
    const message = 'Chains: keep at least one chain of USDT on while deposits are open';
    const stub = fetchStub({
      [AdminConfigPaths.currencies]: ok([usdt]),
      [AdminConfigPaths.saveCurrency]: () =>
        ({ type: 'error', code: 400, message, field: 'chains_off' }) as ReturnType<typeof ok>,
    });
    vi.stubGlobal('fetch', stub.fn);
    renderConsole(<CurrenciesPage />);
    const drawer = await editUsdt();
    fireEvent.click(await within(drawer).findByRole('switch', { name: 'TRC20 on' }));
    fireEvent.click(within(drawer).getByRole('switch', { name: 'ERC20 on' }));
    await saveAndConfirm(drawer);
    expect(await within(drawer).findByText(message)).toBeTruthy();
  });
});
