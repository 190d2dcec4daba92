import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AdminNews, AdminPaths, LANGS, NEWS_BODY_MAX, NEWS_KINDS, NEWS_TITLE_MAX } from '@verdant/api';
import {
  Alert,
  App,
  Button,
  Form,
  Input,
  Modal,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';

interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

type Status = 'all' | 'draft' | 'published';
type FormValues = { kind: string } & Record<string, string | undefined>;

const PAGE_SIZE = 20;
const KEY = ['admin', 'news'] as const;

/** The form's fields: kind, then title_<lang> and body_<lang> for each of the seven languages. */
function toForm(n: AdminNews | null): FormValues {
  const v: FormValues = { kind: n?.kind ?? 'notice' };
  for (const l of LANGS) {
    v[`title_${l}`] = n?.title[l] ?? '';
    v[`body_${l}`] = n?.body[l] ?? '';
  }
  return v;
}

/** Write one notice in every language: English is required, the rest fall back to it. */
function Editor({ editing, onClose }: { editing: AdminNews | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [lang, setLang] = useState<string>('en');
  const current = editing === 'new' ? null : editing;
  const save = useMutation({
    mutationFn: (v: FormValues) =>
      current
        ? api.post<AdminNews>(AdminPaths.newsEdit, { ...v, id: String(current.id) })
        : api.post<AdminNews>(AdminPaths.newsCreate, v),
    onSuccess: () => {
      void message.success(t('news.saved'));
      void queryClient.invalidateQueries({ queryKey: KEY });
      onClose();
    },
  });
  return (
    <Modal
      open
      width={760}
      title={current ? t('news.edit') : t('news.create')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {save.error ? (
        <Alert type="error" showIcon title={save.error.message} style={{ marginBottom: 12 }} />
      ) : null}
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={toForm(current)}
        onFinish={(v) => save.mutate(v)}
        onFinishFailed={({ errorFields }) => {
          // show the language whose field is missing
          const field = String(errorFields[0]?.name[0] ?? '');
          const l = field.split('_')[1];
          if (l) setLang(l);
        }}
      >
        <Form.Item name="kind" label={t('news.kindLabel')}>
          <Select
            style={{ width: 200 }}
            options={NEWS_KINDS.map((k) => ({ value: k, label: t(`news.kind.${k}`) }))}
          />
        </Form.Item>
        <Typography.Paragraph type="secondary">{t('news.languagesHint')}</Typography.Paragraph>
        <Tabs
          activeKey={lang}
          onChange={setLang}
          items={LANGS.map((l) => ({
            key: l,
            label: t(`news.lang.${l}`),
            forceRender: true,
            children: (
              <>
                <Form.Item
                  name={`title_${l}`}
                  label={t('news.title')}
                  rules={[
                    { required: l === 'en', whitespace: true, message: t('news.englishRequired') },
                    { max: NEWS_TITLE_MAX },
                  ]}
                >
                  <Input maxLength={NEWS_TITLE_MAX} showCount />
                </Form.Item>
                <Form.Item
                  name={`body_${l}`}
                  label={t('news.body')}
                  dependencies={[`title_${l}`]}
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: (_r, value: string | undefined) =>
                        // a title needs its text (and the reverse): half a notice is refused
                        !String(getFieldValue(`title_${l}`) ?? '').trim() === !String(value ?? '').trim()
                          ? Promise.resolve()
                          : Promise.reject(new Error(t('news.pairRequired'))),
                    }),
                  ]}
                >
                  <Input.TextArea rows={8} maxLength={NEWS_BODY_MAX} showCount />
                </Form.Item>
              </>
            ),
          }))}
        />
      </Form>
    </Modal>
  );
}

/** Notices and announcements the phone app shows (admins): write, publish, take back, delete. */
export default function NewsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>('all');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminNews | 'new' | null>(null);
  const query = { status, page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: [...KEY, query],
    queryFn: () => api.get<Paged<AdminNews>>(AdminPaths.news, query),
    placeholderData: keepPreviousData,
  });
  const act = useMutation({
    mutationFn: ({ path, id }: { path: string; id: number }) => api.post(path, { id: String(id) }),
    onSuccess: () => {
      void message.success(t('news.done'));
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (e) => void message.error(e.message),
  });
  const titleOf = (n: AdminNews) => n.title.en ?? Object.values(n.title)[0] ?? '';

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
          {t('nav.news')}
        </Typography.Title>
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('news.create')}
        </Button>
      </Space>
      <Segmented<Status>
        value={status}
        onChange={(v) => {
          setStatus(v);
          setPage(1);
        }}
        options={(['all', 'draft', 'published'] as const).map((s) => ({
          value: s,
          label: t(`news.status.${s}`),
        }))}
      />
      {list.error ? <Alert type="error" showIcon title={list.error.message} /> : null}
      <Table<AdminNews>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          { title: t('news.title'), render: (_v, n) => titleOf(n) },
          { title: t('news.kindLabel'), dataIndex: 'kind', render: (k: string) => t(`news.kind.${k}`) },
          {
            title: t('news.languages'),
            render: (_v, n) => Object.keys(n.title).join(' · '),
          },
          {
            title: t('news.statusLabel'),
            dataIndex: 'status',
            render: (s: string) => (
              <Tag color={s === 'published' ? 'green' : undefined}>{t(`news.status.${s}`)}</Tag>
            ),
          },
          {
            title: t('news.publishedAt'),
            dataIndex: 'published_at',
            render: (v: string | null) => (v ? new Date(v).toLocaleString() : '—'),
          },
          {
            title: '',
            key: 'actions',
            render: (_v, n) => (
              <Space>
                <Button size="small" onClick={() => setEditing(n)}>
                  {t('news.edit')}
                </Button>
                {n.status === 'draft' ? (
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => act.mutate({ path: AdminPaths.newsPublish, id: n.id })}
                  >
                    {t('news.publish')}
                  </Button>
                ) : (
                  <Button
                    size="small"
                    onClick={() => act.mutate({ path: AdminPaths.newsUnpublish, id: n.id })}
                  >
                    {t('news.unpublish')}
                  </Button>
                )}
                <Popconfirm
                  title={t('news.deleteConfirm', { title: titleOf(n) })}
                  okText={t('news.delete')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => act.mutate({ path: AdminPaths.newsDelete, id: n.id })}
                >
                  <Button size="small" danger>
                    {t('news.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing ? <Editor editing={editing} onClose={() => setEditing(null)} /> : null}
    </Space>
  );
}
