import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import {
  SUPPORT_TEXT_MAX,
  SupportEvents,
  type SupportMessage,
  type SupportReadEvent,
  type SupportTypingEvent,
} from '@verdant/api';
import { Button, TextArea, Toast } from 'antd-mobile';
import { PictureOutline } from 'antd-mobile-icons';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/api';
import { useLive } from '../../shared/live';
import { QueryFallback } from '../../shared/ui/QueryView';
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB, uploadPicture } from '../../shared/upload';
import {
  helpKeys,
  type MessagePages,
  markRead,
  messagesQuery,
  newClientId,
  sendMessage,
  signalTyping,
  withMessage,
  withRead,
} from './api';
import { ChatBubble, type Pending } from './ChatBubble';
import './chat.css';

/** How long "support is typing" stays up after the last signal, and how often the user's is sent. */
const TYPING_SHOWN_MS = 4_000;
const TYPING_EVERY_MS = 2_500;

/** pages/help-center/chat: the conversation with support, live over the socket (dark header: PageLayout). */
export default function ChatPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const history = useInfiniteQuery(messagesQuery());
  const [pending, setPending] = useState<Pending[]>([]);
  const [text, setText] = useState('');
  const [supportTyping, setSupportTyping] = useState(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastTyping = useRef(0);
  const end = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const messages = useMemo(
    () => (history.data?.pages.flatMap((p) => p.items) ?? []).slice().reverse(),
    [history.data],
  );
  const newestSupport = messages.findLast((m) => m.sender === 'support' && !m.read)?.id;

  // what support wrote is read once it is on screen
  useEffect(() => {
    if (newestSupport === undefined) return;
    void markRead(newestSupport).catch(() => {});
    queryClient.setQueryData<MessagePages>(helpKeys.messages, (d) => withRead(d, 'support', newestSupport));
    queryClient.setQueryData(helpKeys.unread, { unread: 0 });
  }, [newestSupport, queryClient]);

  // the newest message stays in view
  const count = messages.length + pending.length;
  useEffect(() => {
    if (count > 0) end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);

  useEffect(() => () => clearTimeout(typingTimer.current), []);

  useLive([], {
    [SupportEvents.message]: (payload) => {
      const m = payload as SupportMessage;
      queryClient.setQueryData<MessagePages>(helpKeys.messages, (d) => withMessage(d, m));
      if (m.client_id) setPending((list) => list.filter((p) => p.clientId !== m.client_id));
      if (m.sender === 'support') setSupportTyping(false);
    },
    [SupportEvents.typing]: (payload) => {
      if ((payload as SupportTypingEvent).sender !== 'support') return;
      setSupportTyping(true);
      clearTimeout(typingTimer.current);
      typingTimer.current = setTimeout(() => setSupportTyping(false), TYPING_SHOWN_MS);
    },
    [SupportEvents.read]: (payload) => {
      const e = payload as SupportReadEvent;
      if (e.reader === 'support')
        queryClient.setQueryData<MessagePages>(helpKeys.messages, (d) => withRead(d, 'user', e.up_to));
    },
    // back from a lost connection: what arrived meanwhile is in the history
    connect: () => void queryClient.invalidateQueries({ queryKey: helpKeys.messages }),
  });

  async function deliver(p: Pending) {
    setPending((list) => [...list.filter((x) => x.clientId !== p.clientId), { ...p, failed: false }]);
    try {
      const picture = p.picture ?? (p.file ? (await uploadPicture(p.file)).name : undefined);
      const ack = await sendMessage({ client_id: p.clientId, text: p.text, picture });
      if (!ack.ok) throw new Error(ack.error);
      queryClient.setQueryData<MessagePages>(helpKeys.messages, (d) => withMessage(d, ack.message));
      setPending((list) => list.filter((x) => x.clientId !== p.clientId));
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'not-logged-in') return;
      const message =
        e instanceof ApiError && e.kind !== 'server' ? t('help.sendFailed') : (e as Error).message;
      Toast.show({ content: message || t('help.sendFailed') });
      setPending((list) => list.map((x) => (x.clientId === p.clientId ? { ...x, failed: true } : x)));
    }
  }

  function sendText() {
    const body = text.trim();
    if (!body) return;
    setText('');
    void deliver({ clientId: newClientId(), text: body, failed: false });
  }

  function choosePicture(file: File | undefined) {
    if (!file) return;
    if (file.size > UPLOAD_MAX_BYTES) {
      Toast.show({ content: t('upload.tooLarge', { max: `${UPLOAD_MAX_MB} MB` }) });
      return;
    }
    void deliver({ clientId: newClientId(), file, localUrl: URL.createObjectURL(file), failed: false });
  }

  function typing(value: string) {
    setText(value);
    const now = Date.now();
    if (value && now - lastTyping.current > TYPING_EVERY_MS) {
      lastTyping.current = now;
      void signalTyping().catch(() => {});
    }
  }

  return (
    <div className="v-help-chat">
      <div className="v-help-chat__log" role="log" aria-live="polite" aria-label={t('titles.chat')}>
        {history.data === undefined ? (
          <QueryFallback query={history} />
        ) : (
          <>
            {history.hasNextPage ? (
              <Button
                className="v-help-chat__older"
                size="small"
                fill="none"
                loading={history.isFetchingNextPage}
                onClick={() => void history.fetchNextPage()}
              >
                {t('help.older')}
              </Button>
            ) : (
              <p className="v-help-chat__hint">{t('help.chatHint')}</p>
            )}
            {messages.map((m) => (
              <ChatBubble key={m.id} message={m} />
            ))}
            {pending.map((p) => (
              <ChatBubble key={p.clientId} pending={p} onRetry={() => void deliver(p)} />
            ))}
            {supportTyping && <p className="v-help-chat__typing">{t('help.typing')}</p>}
          </>
        )}
        <div ref={end} />
      </div>
      <form
        className="v-help-chat__bar"
        onSubmit={(e) => {
          e.preventDefault();
          sendText();
        }}
      >
        <input
          ref={fileInput}
          type="file"
          accept={UPLOAD_ACCEPT}
          hidden
          onChange={(e) => {
            choosePicture(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <button
          type="button"
          className="v-help-chat__picture"
          aria-label={t('help.sendPicture')}
          onClick={() => fileInput.current?.click()}
        >
          <PictureOutline aria-hidden />
        </button>
        <TextArea
          className="v-help-chat__input"
          value={text}
          onChange={typing}
          placeholder={t('help.messagePlaceholder')}
          aria-label={t('help.messagePlaceholder')}
          autoSize={{ minRows: 1, maxRows: 4 }}
          maxLength={SUPPORT_TEXT_MAX}
          onEnterPress={(e) => {
            if (!e.shiftKey) {
              e.preventDefault();
              sendText();
            }
          }}
        />
        <Button type="submit" color="primary" size="small" disabled={!text.trim()}>
          {t('help.send')}
        </Button>
      </form>
    </div>
  );
}
