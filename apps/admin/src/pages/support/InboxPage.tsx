import { DisconnectOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AdminConversation,
  AdminSupportPaths,
  type SupportHistory,
  type SupportMessage,
  type UploadResult,
} from '@verdant/api';
import {
  App,
  Badge,
  Button,
  Card,
  Empty,
  Input,
  List,
  Segmented,
  Select,
  Space,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSession } from '../../session';
import { SupportPicture } from './SupportPicture';
import { UserContext } from './UserContext';
import { addMessage, type LinkState, supportKeys, useSupportSocket } from './useSupportSocket';
import './support.css';

interface Paged<T> {
  items: T[];
  total: number;
}
interface Operator {
  id: number;
  username: string;
}

const STATUSES = ['open', 'closed', 'all'] as const;
/**
 * The socket brings every change; only while it is down does the inbox ask again, this slowly
 * (and once more when it is back).
 */
const FALLBACK_REFRESH_MS = 30_000;
const refetchWhen = (state: LinkState) => (state === 'live' ? false : FALLBACK_REFRESH_MS);
const UPLOAD_ACCEPT = 'image/jpeg,image/png,image/webp';

/** One chat: its messages (oldest first, older pages on demand) and the answer box. */
function Conversation({
  c,
  operators,
  link,
  typing,
  sendTyping,
}: {
  c: AdminConversation;
  operators: Operator[];
  link: LinkState;
  typing: boolean;
  sendTyping: (conversationId: number) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [older, setOlder] = useState<SupportMessage[]>([]);
  const [hasOlder, setHasOlder] = useState<boolean | null>(null);
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const id = String(c.id);
  const latest = useQuery({
    queryKey: supportKeys.messages(c.id),
    queryFn: () => api.get<SupportHistory>(AdminSupportPaths.messages, { conversation_id: id, limit: 50 }),
    refetchInterval: refetchWhen(link),
  });
  const shown = [...(latest.data?.items ?? []), ...older]
    .filter((m, i, all) => all.findIndex((x) => x.id === m.id) === i)
    .sort((a, b) => a.id - b.id);
  const newest = shown.at(-1)?.id;
  const unreadFromUser = latest.data?.unread ?? 0;

  // the chat itself follows the socket; assigning, closing and answering change the list
  const refresh = () => void queryClient.invalidateQueries({ queryKey: supportKeys.list });
  // what is on screen is read (the socket's read event then clears the counts)
  const marking = useRef<number | null>(null);
  useEffect(() => {
    if (newest === undefined || unreadFromUser === 0 || marking.current === newest) return;
    marking.current = newest;
    void api.post(AdminSupportPaths.read, { conversation_id: id, up_to: String(newest) }).then(
      () => {
        queryClient.setQueryData<SupportHistory>(supportKeys.messages(c.id), (h) => h && { ...h, unread: 0 });
        void queryClient.invalidateQueries({ queryKey: supportKeys.list });
      },
      () => {
        marking.current = null;
      },
    );
  });
  useEffect(() => {
    if (newest !== undefined) end.current?.scrollIntoView({ block: 'end' });
  }, [newest]);

  const loadOlder = async () => {
    const first = shown[0];
    if (!first) return;
    const page = await api.get<SupportHistory>(AdminSupportPaths.messages, {
      conversation_id: id,
      before: first.id,
      limit: 50,
    });
    setOlder((o) => [...o, ...page.items]);
    setHasOlder(page.has_more);
  };

  const reply = useMutation({
    mutationFn: (body: { text?: string; picture?: string }) =>
      api.post<SupportMessage>(AdminSupportPaths.reply, { conversation_id: id, ...body }),
    onSuccess: (sent, body) => {
      if (body.text) setText('');
      addMessage(queryClient, sent);
      refresh();
    },
    onError: (e) => void message.error(e.message),
  });
  const act = useMutation({
    mutationFn: (a: { path: string; body: Record<string, unknown> }) => api.post(a.path, a.body),
    onSuccess: () => {
      void message.success(t('support.done'));
      refresh();
    },
    onError: (e) => void message.error(e.message),
  });

  const sendPicture = async (file: File) => {
    // the server checks the type from the bytes and the size, and says what is wrong
    try {
      const saved = await api.upload<UploadResult>(`${AdminSupportPaths.upload}?conversation_id=${id}`, file);
      reply.mutate({ picture: saved.name });
    } catch (e) {
      void message.error((e as Error).message);
    }
  };

  return (
    <Card
      className="v-inbox__chat"
      title={
        <Space>
          <span>{c.user_account}</span>
          <Tag color={c.status === 'open' ? 'green' : 'default'}>{t(`support.status.${c.status}`)}</Tag>
        </Space>
      }
      extra={
        <Space>
          <Select
            aria-label={t('support.assign')}
            placeholder={t('support.assign')}
            style={{ width: 160 }}
            value={c.assigned_to ?? undefined}
            options={operators.map((o) => ({ value: o.id, label: o.username }))}
            onChange={(v: number) =>
              act.mutate({
                path: AdminSupportPaths.assign,
                body: { conversation_id: id, operator_id: String(v) },
              })
            }
          />
          <Button
            disabled={c.status === 'closed'}
            onClick={() => act.mutate({ path: AdminSupportPaths.close, body: { conversation_id: id } })}
          >
            {t('support.close')}
          </Button>
        </Space>
      }
    >
      <div className="v-inbox__log" role="log" aria-label={t('support.messages')}>
        {(hasOlder ?? latest.data?.has_more) && (
          <Button type="link" onClick={() => void loadOlder()}>
            {t('support.older')}
          </Button>
        )}
        {shown.map((m) => (
          <div
            key={m.id}
            className={m.sender === 'support' ? 'v-inbox__msg v-inbox__msg--support' : 'v-inbox__msg'}
          >
            <div className="v-inbox__bubble">
              {m.picture && <SupportPicture name={m.picture} />}
              {m.text && <p className="v-inbox__text">{m.text}</p>}
            </div>
            <Typography.Text type="secondary" className="v-inbox__meta">
              {m.sender === 'support' ? (m.operator ?? t('support.support')) : c.user_account} ·{' '}
              {new Date(m.created_at).toLocaleString()}
              {m.sender === 'support' && ` · ${m.read ? t('support.read') : t('support.sent')}`}
            </Typography.Text>
          </div>
        ))}
        <div ref={end} />
      </div>
      <Typography.Text type="secondary" className="v-inbox__typing" aria-live="polite">
        {typing ? t('support.typing', { name: c.user_account }) : ''}
      </Typography.Text>
      <Space.Compact className="v-inbox__answer">
        <Upload
          accept={UPLOAD_ACCEPT}
          showUploadList={false}
          beforeUpload={(file) => {
            void sendPicture(file);
            return false;
          }}
        >
          <Button aria-label={t('support.sendPicture')}>{t('support.picture')}</Button>
        </Upload>
        <Input.TextArea
          aria-label={t('support.answer')}
          placeholder={t('support.answer')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value) sendTyping(c.id);
          }}
          autoSize={{ minRows: 1, maxRows: 5 }}
          maxLength={2000}
          onPressEnter={(e) => {
            if (!e.shiftKey) {
              e.preventDefault();
              if (text.trim()) reply.mutate({ text });
            }
          }}
        />
        <Button
          type="primary"
          loading={reply.isPending}
          disabled={!text.trim()}
          onClick={() => reply.mutate({ text })}
        >
          {t('support.send')}
        </Button>
      </Space.Compact>
    </Card>
  );
}

/** The support inbox (issue 23): chats by latest message, one chat, the user beside it. */
export default function InboxPage() {
  const { t } = useTranslation();
  const session = useSession();
  const live = useSupportSocket();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('open');
  const [mine, setMine] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const list = useQuery({
    queryKey: [...supportKeys.list, status, mine],
    queryFn: () =>
      api.get<Paged<AdminConversation>>(AdminSupportPaths.conversations, { status, mine, limit: 100 }),
    placeholderData: keepPreviousData,
    refetchInterval: refetchWhen(live.state),
  });
  const operators = useQuery({
    queryKey: ['admin', 'support', 'operators'],
    queryFn: () => api.get<Operator[]>(AdminSupportPaths.operators),
    staleTime: 60_000,
  });
  const current = list.data?.items.find((c) => c.id === selected) ?? null;

  return (
    <div className="v-inbox">
      <Card className="v-inbox__list" title={t('nav.supportInbox')}>
        <div className="v-inbox__filters">
          {live.state === 'reconnecting' && (
            // nothing arrives by itself until the socket is back: the inbox says so
            <Tag role="status" icon={<DisconnectOutlined />} className="v-inbox__link">
              {t('support.reconnecting')}
            </Tag>
          )}
          <Segmented
            block
            value={status}
            onChange={(v) => setStatus(v as (typeof STATUSES)[number])}
            options={STATUSES.map((s) => ({ value: s, label: t(`support.status.${s}`) }))}
          />
          <Segmented
            block
            size="small"
            value={mine ? 'mine' : 'everyone'}
            onChange={(v) => setMine(v === 'mine')}
            options={[
              { value: 'everyone', label: t('support.everyone') },
              { value: 'mine', label: t('support.mine', { name: session?.operator.username ?? '' }) },
            ]}
          />
        </div>
        <List
          loading={list.isPending}
          dataSource={list.data?.items ?? []}
          locale={{ emptyText: <Empty description={t('support.empty')} /> }}
          renderItem={(c) => (
            <List.Item
              className={c.id === selected ? 'v-inbox__item is-active' : 'v-inbox__item'}
              onClick={() => setSelected(c.id)}
            >
              <List.Item.Meta
                title={
                  <button type="button" className="v-inbox__pick" onClick={() => setSelected(c.id)}>
                    <Badge count={c.unread} size="small" offset={[8, 0]}>
                      {c.user_account}
                    </Badge>
                  </button>
                }
                description={
                  <Typography.Text type="secondary" ellipsis>
                    {c.last_text || t('support.picture')}
                    {c.assigned_username ? ` · ${c.assigned_username}` : ''}
                  </Typography.Text>
                }
              />
            </List.Item>
          )}
        />
      </Card>
      {current ? (
        <>
          <Conversation
            key={current.id}
            c={current}
            operators={operators.data ?? []}
            link={live.state}
            typing={live.typing.has(current.id)}
            sendTyping={live.sendTyping}
          />
          <UserContext conversationId={current.id} />
        </>
      ) : (
        <Card className="v-inbox__chat">
          <Empty description={t('support.choose')} />
        </Card>
      )}
    </div>
  );
}
