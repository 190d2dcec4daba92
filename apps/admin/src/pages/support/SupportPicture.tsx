import { AdminSupportPaths, API_BASE, LANG_HEADER } from '@verdant/api';
import { Image, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../i18n';
import { getToken } from '../../session';

/** A picture the operator API serves, as an object URL: fetched with the token an <img> cannot send. */
async function pictureUrl(name: string): Promise<string> {
  const headers: Record<string, string> = { [LANG_HEADER]: currentLang() };
  const token = getToken();
  if (token) headers.authorization = token;
  const res = await fetch(`${API_BASE}/${AdminSupportPaths.picture}/${encodeURIComponent(name)}`, {
    headers,
  });
  if (!res.ok) throw new Error(`status ${res.status}`);
  return URL.createObjectURL(await res.blob());
}

/** A picture of a chat or a feedback, for support. */
export function SupportPicture({ name }: { name: string }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let made: string | null = null;
    let live = true;
    pictureUrl(name).then(
      (u) => {
        made = u;
        if (live) setUrl(u);
        else URL.revokeObjectURL(u);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [name]);
  if (failed) return <Typography.Text type="danger">{t('support.pictureFailed')}</Typography.Text>;
  if (!url) return <span className="v-inbox__picture-loading" aria-busy="true" />;
  return <Image src={url} alt={t('support.picture')} width={160} />;
}
