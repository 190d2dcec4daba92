import type { DialogConfirmProps } from 'antd-mobile/es/components/dialog';

// Dialog pulls in antd-mobile's animation library; the pages that offer a dialog on a tap (the
// market list's favourites, the assets page's demo funds) paint first without it, so it loads on
// first use (and at the first interaction, see main.tsx).
type DialogApi = typeof import('antd-mobile/es/components/dialog').default;

let loading: Promise<DialogApi> | null = null;

export function loadDialog(): Promise<DialogApi> {
  loading ??= import('antd-mobile/es/components/dialog').then((m) => m.default);
  return loading;
}

/** `Dialog.confirm`: true when the user confirms. */
export async function confirmDialog(props: DialogConfirmProps): Promise<boolean> {
  const Dialog = await loadDialog();
  return Dialog.confirm(props);
}
