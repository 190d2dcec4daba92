import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReferralInvite, ReferralRebatePage, ReferralRefereePage } from '@verdant/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { paths } from '../../shared/paths';
import { fetchStub, ok, renderPage } from '../../test/render';
import PromotionPage from './PromotionPage';

const INVITE: ReferralInvite = {
  invite_code: 'ABCD2345',
  link: '/h5/#/pages/user/login/register?invite=ABCD2345',
  authorisation_code: 'FRIEND77',
  promoted_count: 3,
  total_earnings: '12.5',
  earnings: [{ currency: 'USDT', currency_id: 3, amount: '12.5' }],
  pending_payout: '0',
  rate: '0.25',
  exclusive: true,
};
const EMPTY_PAGE = { list: [], page: 1, limit: 100, total: 0 };
const REBATES: ReferralRebatePage = {
  list: [
    {
      id: '9',
      kind: 'contract',
      referee: 'bo***@example.com',
      currency: 'USDT',
      fee: '0.9',
      rate: '0.25',
      amount: '0.225',
      account_type: 'contract',
      created_at: '2026-11-25T10:00:00.000Z',
    },
  ],
  page: 1,
  limit: 100,
  total: 1,
};

/** The API as the page calls it; the poster answers a picture (or fails) outside the envelope. */
function stubApi(poster: 'svg' | 'fail', referees: ReferralRefereePage = EMPTY_PAGE) {
  const stub = fetchStub({
    'user/invite': ok(INVITE),
    'user/my_share': ok({ invite_code: 'ABCD2345', link: INVITE.link, text: 'Join me' }),
    'user/invite_list': ok({ list: [{ rank: 1, account: 'al***@example.com', rebate: '12.5' }] }),
    'user/my_invite_list': ok(referees),
    'user/my_account_return': ok(REBATES),
  });
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith('user/my_poster'))
      return poster === 'svg'
        ? new Response('<svg xmlns="http://www.w3.org/2000/svg"/>', {
            headers: { 'content-type': 'image/svg+xml' },
          })
        : new Response('{}', { status: 500 });
    return stub.fn(input, init);
  };
  vi.stubGlobal('fetch', fn);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('promotion page', () => {
  it('shows the code, the stats, the ranking, an empty referee list and the rebate records', async () => {
    stubApi('svg');
    renderPage(<PromotionPage />, paths.promotion);
    expect(await screen.findByText('ABCD2345')).toBeTruthy();
    const stats = screen.getByRole('region', { name: en.promotion.stats });
    expect(within(stats).getByText('12.5 USDT')).toBeTruthy();
    expect(within(stats).getByText('25%')).toBeTruthy();
    expect(within(stats).getByText(en.promotion.exclusiveYes)).toBeTruthy();
    expect(within(stats).getByText('FRIEND77')).toBeTruthy();
    expect(await screen.findByText('al***@example.com')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: en.promotion.referees }));
    expect(await screen.findByText(en.promotion.noReferees)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: en.promotion.rebates }));
    expect(await screen.findByText('+0.225 USDT')).toBeTruthy();
  });

  it('shares by copying the text and the link where the phone has no share sheet', async () => {
    stubApi('svg');
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    renderPage(<PromotionPage />, paths.promotion);
    await screen.findByText('ABCD2345');
    await waitFor(() => expect(screen.getByRole('button', { name: en.promotion.share })).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: en.promotion.share }));
    await waitFor(() => expect(writeText).toHaveBeenCalled());
    expect(String(writeText.mock.calls.at(-1)?.[0 as never])).toContain(
      '/h5/#/pages/user/login/register?invite=ABCD2345',
    );
    expect(await screen.findByText(en.common.copied)).toBeTruthy();
  });

  it('says so when the poster cannot be loaded, and when the picture cannot be saved', async () => {
    stubApi('fail');
    renderPage(<PromotionPage />, paths.promotion);
    fireEvent.click(await screen.findByRole('button', { name: en.promotion.poster }));
    expect(await screen.findByText(en.promotion.posterFailed)).toBeTruthy();

    stubApi('svg');
    class BlobUrls extends URL {
      static override createObjectURL = () => 'blob:poster';
      static override revokeObjectURL = () => {};
    }
    vi.stubGlobal('URL', BlobUrls);
    fireEvent.click(screen.getByRole('button', { name: en.common.retry }));
    const img = await screen.findByAltText(en.promotion.posterAlt);
    expect(img.getAttribute('src')).toBe('blob:poster');
    // this browser cannot draw the picture to save it: the user is told, in words of spec §8
    fireEvent.click(screen.getByRole('button', { name: en.promotion.savePoster }));
    expect(await screen.findByText(en.promotion.saveFailed)).toBeTruthy();
  });
});
