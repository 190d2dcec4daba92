import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { ok, renderPage } from '../../test/render';
import { DemoFundsCard } from './components/DemoFundsCard';

/** The demo-funds endpoint as the server answers it: offered until one POST takes them. */
function demoServer(offered: boolean) {
  let taken = false;
  const posts: string[] = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/api\//, '');
    if (path === 'wallet/demo_funds' && init?.method === 'POST') {
      posts.push(path);
      taken = true;
    }
    const envelope =
      path === 'wallet/demo_funds'
        ? ok({ offered: offered && !taken, taken, amount: '10000', symbol: 'USDT' })
        : { type: 'error', code: 1404, message: `no stub for ${path}` };
    return new Response(JSON.stringify(envelope), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { fn, posts };
}

describe('demo funds on the assets page', () => {
  it('asks first, takes them once, then the offer is gone', async () => {
    const server = demoServer(true);
    vi.stubGlobal('fetch', server.fn);
    renderPage(<DemoFundsCard />, '/');
    expect(await screen.findByText('Try trading with 10,000 USDT of demo funds')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.assets.demo.take }));
    expect(await screen.findByText(en.assets.demo.confirmTitle)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.common.confirm }));
    await waitFor(() => expect(screen.queryByText(en.assets.demo.confirmTitle)).toBeNull());
    await waitFor(() => expect(screen.queryByRole('button', { name: en.assets.demo.take })).toBeNull());
    expect(server.posts).toHaveLength(1);
    expect(await screen.findByText('10,000 USDT of demo funds added to your spot account')).toBeTruthy();
  });

  it('cancelling the confirmation takes nothing', async () => {
    const server = demoServer(true);
    vi.stubGlobal('fetch', server.fn);
    renderPage(<DemoFundsCard />, '/');
    fireEvent.click(await screen.findByRole('button', { name: en.assets.demo.take }));
    fireEvent.click(await screen.findByRole('button', { name: en.common.cancel }));
    await waitFor(() => expect(screen.queryByText(en.assets.demo.confirmTitle)).toBeNull());
    expect(server.posts).toHaveLength(0);
    expect(screen.getByRole('button', { name: en.assets.demo.take })).toBeTruthy();
  });
});
