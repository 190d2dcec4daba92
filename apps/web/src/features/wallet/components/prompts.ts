import { Dialog } from 'antd-mobile';
import type { TFunction } from 'i18next';
import type { NavigateFunction } from 'react-router';
import { paths } from '../../../shared/paths';

async function ask(t: TFunction, content: string, confirmText: string): Promise<boolean> {
  return Dialog.confirm({ content, confirmText, cancelText: t('common.cancel') });
}

/** Spec §5/§8: no fund password yet → "Set a fund password first", leading to set it. */
export async function promptFundPassword(t: TFunction, navigate: NavigateFunction): Promise<void> {
  if (await ask(t, t('withdraw.fundPasswordFirst'), t('withdraw.setNow'))) navigate(paths.changePayPassword);
}

/** Spec §8: "Account not verified, proceed to verification?" */
export async function promptVerification(t: TFunction, navigate: NavigateFunction): Promise<void> {
  if (await ask(t, t('withdraw.notVerified'), t('withdraw.verifyNow'))) navigate(paths.verification);
}

/** Spec §5/§8: "Please set the withdraw address first" (or a bank card, for bank withdrawals). */
export async function promptDestination(
  t: TFunction,
  navigate: NavigateFunction,
  kind: 'address' | 'bank',
  to: string,
): Promise<void> {
  const content = kind === 'address' ? t('withdraw.addressFirst') : t('withdraw.bankCardFirst');
  if (await ask(t, content, kind === 'address' ? t('address.add') : t('bank.add'))) navigate(to);
}
