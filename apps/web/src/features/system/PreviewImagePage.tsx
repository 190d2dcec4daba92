import { PictureWrongOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useGoBack } from '../../shared/navigation';
import './system.css';

/** Only pictures the app can show safely: its own paths, web addresses, local previews. */
function safeSrc(src: string | null): string | null {
  if (!src) return null;
  if (src.startsWith('/') && !src.startsWith('//')) return src;
  if (/^(https?:|blob:)/i.test(src) || /^data:image\//i.test(src)) return src;
  return null;
}

/** Built-in /preview-image?src=…: the picture on black, tap to close. */
export default function PreviewImagePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const goBack = useGoBack();
  const src = safeSrc(params.get('src'));
  const [failed, setFailed] = useState(false);

  const shown = Boolean(src) && !failed;
  return (
    <button
      type="button"
      className="v-system-preview"
      onClick={goBack}
      // the name holds the text the button shows when the picture failed (WCAG 2.5.3)
      aria-label={shown ? t('common.close') : `${t('errors.previewFailed')} ${t('common.close')}`}
    >
      {shown ? (
        <img src={src ?? undefined} alt={t('titles.previewImage')} onError={() => setFailed(true)} />
      ) : (
        <span className="v-system-preview__failed" role="alert">
          <PictureWrongOutline />
          {t('errors.previewFailed')}
        </span>
      )}
    </button>
  );
}
