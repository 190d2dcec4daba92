import { Dialog } from 'antd-mobile';
import type { TFunction } from 'i18next';

/** Asks before logging out (from the settings page or the account page: the same question). */
export function confirmSignOut(t: TFunction): Promise<boolean> {
  return Dialog.confirm({
    content: t('settings.logoutConfirm'),
    confirmText: t('settings.logout'),
    cancelText: t('common.cancel'),
  });
}
