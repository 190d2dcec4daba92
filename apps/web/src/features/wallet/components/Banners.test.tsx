import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { paths } from '../../../shared/paths';
import { renderPage } from '../../../test/render';
import { FundPasswordBanner, VerificationBanner } from './Banners';

const confirmDialog = async () => {
  const dialogs = await screen.findAllByRole('dialog');
  const dialog = dialogs[dialogs.length - 1];
  if (dialog) fireEvent.click(within(dialog).getByText(en.withdraw.setNow));
};

describe('wallet banners', () => {
  it('asks to set a fund password and leads to the fund-password page', async () => {
    const { router } = renderPage(<FundPasswordBanner />, paths.withdraw);
    fireEvent.click(screen.getByRole('button', { name: en.withdraw.fundPasswordBanner }));
    expect(await screen.findByText(en.withdraw.fundPasswordFirst)).toBeTruthy();
    await confirmDialog();
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.changePayPassword));
  });

  it('asks to verify the account and stays put when the user cancels', async () => {
    const { router } = renderPage(<VerificationBanner />, paths.withdraw);
    fireEvent.click(screen.getByRole('button', { name: en.withdraw.notVerifiedBanner }));
    expect(await screen.findByText(en.withdraw.notVerified)).toBeTruthy();
    const dialogs = await screen.findAllByRole('dialog');
    fireEvent.click(within(dialogs[dialogs.length - 1] as HTMLElement).getByText(en.common.cancel));
    await waitFor(() => expect(screen.queryByText(en.withdraw.notVerified)).toBeNull());
    expect(router.state.location.pathname).toBe(paths.withdraw);
  });
});
