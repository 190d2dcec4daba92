import { Toast } from 'antd-mobile';
import { FileOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../shared/clipboard';
import '../wallet.css';
import './copy-value.css';

/** Copies and says so; spec §8: "Copy failed, please copy manually" when the browser refuses. */
export async function copyWithToast(value: string, t: (k: 'common.copied' | 'common.copyFailed') => string) {
  const ok = await copyText(value);
  Toast.show(ok ? { icon: 'success', content: t('common.copied') } : { content: t('common.copyFailed') });
}

/** A value the user may need elsewhere (an address, a reference) with a copy button beside it. */
export function CopyValue({ value, mono = true }: { value: string; mono?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="v-wallet-copy-value">
      <span className={mono ? 'v-wallet-mono v-selectable' : 'v-selectable'}>{value}</span>
      <button
        type="button"
        className="v-wallet-copy-value__button"
        aria-label={t('wallet.copy')}
        onClick={() => void copyWithToast(value, t)}
      >
        <FileOutline />
      </button>
    </span>
  );
}
