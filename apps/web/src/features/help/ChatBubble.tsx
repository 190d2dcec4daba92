import type { SupportMessage } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../shared/datetime';
import { href } from '../../shared/paths';
import { usePrivateImage } from '../../shared/upload';

/** A message on its way: its text or picture, until the server has stored it. */
export interface Pending {
  clientId: string;
  text?: string;
  /** A picture already uploaded (a retry), or the file still to upload. */
  picture?: string;
  file?: File;
  localUrl?: string;
  failed: boolean;
}

/** A picture of the chat: fetched with the session (never a public address), tap to enlarge. */
function Picture({ name, localUrl }: { name?: string | null; localUrl?: string }) {
  const { t } = useTranslation();
  const stored = usePrivateImage(localUrl ? null : name);
  const url = localUrl ?? stored.url;
  if (stored.failed) return <span className="v-help-chat__picture-failed">{t('errors.previewFailed')}</span>;
  if (!url) return <span className="v-help-chat__picture-loading" aria-busy="true" />;
  return (
    <Link
      to={href('previewImage', { src: url })}
      className="v-help-chat__image"
      aria-label={t('help.openPicture')}
    >
      <img src={url} alt={t('help.picture')} />
    </Link>
  );
}

/** One message: the user's on the right with its delivery state, support's on the left. */
export function ChatBubble({
  message,
  pending,
  onRetry,
}: {
  message?: SupportMessage;
  pending?: Pending;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const mine = pending !== undefined || message?.sender === 'user';
  const text = message?.text ?? pending?.text ?? '';
  const hasPicture = Boolean(message?.picture || pending?.file || pending?.picture);
  const state = pending
    ? pending.failed
      ? 'failed'
      : 'sending'
    : message?.sender === 'user'
      ? message.read
        ? 'read'
        : 'sent'
      : null;

  return (
    <div className={mine ? 'v-help-chat__row v-help-chat__row--mine' : 'v-help-chat__row'}>
      {!mine && <span className="v-help-chat__who">{t('help.support')}</span>}
      <div className="v-help-chat__bubble">
        {hasPicture && <Picture name={message?.picture ?? pending?.picture} localUrl={pending?.localUrl} />}
        {text && <p className="v-help-chat__text">{text}</p>}
      </div>
      <span className="v-help-chat__meta">
        {message && <time dateTime={message.created_at}>{formatTime(message.created_at)}</time>}
        {state && (
          <span className={`v-help-chat__state v-help-chat__state--${state}`}>
            {t(`help.state.${state}`)}
          </span>
        )}
        {state === 'failed' && onRetry && (
          <button type="button" className="v-help-chat__retry" onClick={onRetry}>
            {t('common.retry')}
          </button>
        )}
      </span>
    </div>
  );
}
