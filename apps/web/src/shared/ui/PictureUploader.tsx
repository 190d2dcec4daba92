import { ImageUploader, type ImageUploadItem, Toast } from 'antd-mobile';
import './widgets.css';
import { PictureOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB, uploadPicture } from '../upload';

interface Props {
  /** The stored upload name (what the form sends), or undefined. */
  value?: string;
  onChange?: (name: string | undefined) => void;
  /** Text on the empty tile. */
  label: string;
  className?: string;
}

/**
 * One picture, uploaded to POST /api/upload as soon as it is chosen. The preview is the user's own
 * local file (a blob: URL), never the server's address. Too-large files are refused before sending
 * (spec §5, §8: "Out of allowable file size"); the server's refusals are shown as it words them.
 */
export function PictureUploader({ value, onChange, label, className }: Props) {
  const { t } = useTranslation();
  const [items, setItems] = useState<ImageUploadItem[]>([]);
  const urls = useRef<string[]>([]);

  // a form reset clears the picture too
  useEffect(() => {
    if (!value) setItems((prev) => (prev.length ? [] : prev));
  }, [value]);

  useEffect(
    () => () => {
      for (const u of urls.current) URL.revokeObjectURL(u);
    },
    [],
  );

  const upload = async (file: File): Promise<ImageUploadItem> => {
    try {
      const saved = await uploadPicture(file);
      const url = URL.createObjectURL(file);
      urls.current.push(url);
      onChange?.(saved.name);
      return { key: saved.name, url, extra: saved.name };
    } catch (e) {
      if (!(e instanceof ApiError && e.kind === 'not-logged-in')) {
        Toast.show({
          content: e instanceof ApiError && e.kind === 'server' ? e.message : t('upload.failed'),
        });
      }
      throw e;
    }
  };

  return (
    <ImageUploader
      className={`v-uploader ${className ?? ''}`}
      value={items}
      onChange={(next) => {
        setItems(next);
        if (next.length === 0) onChange?.(undefined);
      }}
      upload={upload}
      beforeUpload={(file) => {
        if (file.size > UPLOAD_MAX_BYTES) {
          Toast.show({ content: t('upload.tooLarge', { max: `${UPLOAD_MAX_MB} MB` }) });
          return null;
        }
        return file;
      }}
      maxCount={1}
      accept={UPLOAD_ACCEPT}
      showFailed={false}
    >
      <div className="v-uploader__tile">
        <PictureOutline className="v-uploader__icon" />
        <span>{label}</span>
      </div>
    </ImageUploader>
  );
}
