import { Image, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchBlobUrl } from '../api';

/** A private upload (voucher, identity photo), fetched with the operator's token; click to enlarge. */
export function PrivateImage({ src, alt, width = 220 }: { src: string | null; alt: string; width?: number }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!src) return;
    let live = true;
    let made: string | null = null;
    fetchBlobUrl(src)
      .then((u) => {
        made = u;
        if (live) setUrl(u);
        else URL.revokeObjectURL(u);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [src]);
  if (!src) return <Typography.Text type="secondary">{t('review.noPicture')}</Typography.Text>;
  if (failed) return <Typography.Text type="danger">{t('review.pictureFailed')}</Typography.Text>;
  if (!url) return <Skeleton.Image active style={{ width, height: width * 0.66 }} />;
  return <Image src={url} alt={alt} width={width} />;
}
