import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AdminArticle, AdminSupportPaths, HELP_CATEGORIES, LANGS } from '@verdant/api';
import { App, Button, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';

type Texts = Partial<Record<(typeof LANGS)[number], { title?: string; body?: string }>>;
interface ArticleForm {
  slug?: string;
  category: string;
  sort?: number;
  published: boolean;
  texts: Texts;
}

/** Help articles (admins): the help centre's common questions in seven languages; English is required. */
export default function ArticlesPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<AdminArticle | 'new' | null>(null);
  const [form] = Form.useForm<ArticleForm>();
  const list = useQuery({
    queryKey: ['admin', 'help', 'articles'],
    queryFn: () => api.get<AdminArticle[]>(AdminSupportPaths.articles),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'help'] });

  const save = useMutation({
    mutationFn: (v: ArticleForm) =>
      api.post<AdminArticle>(AdminSupportPaths.saveArticle, {
        id: editing !== 'new' && editing ? String(editing.id) : '',
        slug: v.slug ?? '',
        category: v.category,
        sort: String(v.sort ?? 0),
        published: v.published ? '1' : '0',
        texts: JSON.stringify(v.texts ?? {}),
      }),
    onSuccess: () => {
      setEditing(null);
      void message.success(t('support.help.saved'));
      refresh();
    },
    onError: (e) => void message.error(e.message),
  });
  const remove = useMutation({
    mutationFn: (a: AdminArticle) => api.post(AdminSupportPaths.deleteArticle, { id: String(a.id) }),
    onSuccess: () => {
      void message.success(t('support.help.deleted'));
      refresh();
    },
    onError: (e) => void message.error(e.message),
  });

  const open = (a: AdminArticle | 'new') => {
    setEditing(a);
    form.setFieldsValue(
      a === 'new'
        ? { slug: '', category: HELP_CATEGORIES[0], sort: 0, published: true, texts: {} }
        : { slug: a.slug ?? '', category: a.category, sort: a.sort, published: a.published, texts: a.texts },
    );
  };

  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => open('new')}>
          {t('support.help.new')}
        </Button>
      </Space>
      <Table
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          {
            title: t('support.help.category'),
            dataIndex: 'category',
            render: (c: string) => t(`support.help.categories.${c}`),
          },
          { title: t('support.help.title'), render: (_, a: AdminArticle) => a.texts.en?.title ?? '' },
          { title: t('support.help.slug'), dataIndex: 'slug' },
          {
            title: t('support.help.languages'),
            render: (_, a: AdminArticle) => LANGS.filter((l) => a.texts[l]).join(' '),
          },
          {
            title: t('support.help.published'),
            dataIndex: 'published',
            render: (p: boolean) => (
              <Tag color={p ? 'green' : 'default'}>{p ? t('support.help.yes') : t('support.help.no')}</Tag>
            ),
          },
          {
            title: '',
            render: (_, a: AdminArticle) => (
              <Space>
                <Button size="small" onClick={() => open(a)}>
                  {t('support.help.edit')}
                </Button>
                <Button
                  size="small"
                  danger
                  onClick={() =>
                    modal.confirm({
                      title: t('support.help.deleteConfirm', { title: a.texts.en?.title ?? a.id }),
                      onOk: () => remove.mutateAsync(a),
                    })
                  }
                >
                  {t('support.help.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('support.help.new') : t('support.help.edit')}
        width={760}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={save.isPending}
        onOk={() => form.submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <Space wrap>
            <Form.Item name="category" label={t('support.help.category')} rules={[{ required: true }]}>
              <Select
                style={{ width: 220 }}
                options={HELP_CATEGORIES.map((c) => ({ value: c, label: t(`support.help.categories.${c}`) }))}
              />
            </Form.Item>
            <Form.Item name="slug" label={t('support.help.slug')} tooltip={t('support.help.slugHint')}>
              <Input style={{ width: 180 }} maxLength={40} />
            </Form.Item>
            <Form.Item name="sort" label={t('support.help.sort')}>
              <InputNumber precision={0} />
            </Form.Item>
            <Form.Item name="published" label={t('support.help.published')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
          <Tabs
            items={LANGS.map((l) => ({
              key: l,
              label: l === 'en' ? `${l} *` : l,
              forceRender: true,
              children: (
                <>
                  <Form.Item name={['texts', l, 'title']} label={t('support.help.title')}>
                    <Input maxLength={200} />
                  </Form.Item>
                  <Form.Item
                    name={['texts', l, 'body']}
                    label={t('support.help.body')}
                    extra={t('support.help.bodyHint')}
                  >
                    <Input.TextArea autoSize={{ minRows: 6, maxRows: 16 }} maxLength={20000} />
                  </Form.Item>
                </>
              ),
            }))}
          />
        </Form>
      </Modal>
    </>
  );
}
