import {
  type AdminLoginResult,
  AdminPaths,
  type Operator,
  type OperatorAuthState,
  type OperatorSessionStage,
  type TotpSetup,
} from '@verdant/api';
import { Alert, App, Button, Card, Form, Input, Space, Typography } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError, api } from '../api';
import { saveSession, useSession } from '../session';
import { LanguageSelect } from './LanguageSelect';

/** A sign-in in progress: the token works only for the next step until the stage is ready. */
interface Pending {
  token: string;
  operator: Operator;
  stage: OperatorSessionStage;
}

/** Only routes inside the console: `next` never sends the operator to another site. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : '/';
}

function useSubmit<T>(run: (values: T) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslation();
  const submit = async (values: T) => {
    setBusy(true);
    setError(null);
    try {
      await run(values);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('common.serverError'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit };
}

function Credentials({ onDone }: { onDone: (p: Pending) => void }) {
  const { t } = useTranslation();
  const { busy, error, submit } = useSubmit<{ username: string; password: string }>(async (v) => {
    const r = await api.post<AdminLoginResult>(AdminPaths.login, v);
    onDone(r);
  });
  return (
    <Form layout="vertical" onFinish={submit} requiredMark={false}>
      {error ? <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} /> : null}
      <Form.Item
        name="username"
        label={t('login.username')}
        rules={[{ required: true, message: t('login.usernameRequired') }]}
      >
        <Input autoComplete="username" autoFocus />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('login.password')}
        rules={[{ required: true, message: t('login.passwordRequired') }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('login.submit')}
      </Button>
    </Form>
  );
}

function ChangePassword({ pending, onDone }: { pending: Pending; onDone: (s: OperatorAuthState) => void }) {
  const { t } = useTranslation();
  const { busy, error, submit } = useSubmit<{ password: string; new_password: string; confirm: string }>(
    async (v) => {
      onDone(
        await api.postWith<OperatorAuthState>(pending.token, AdminPaths.password, {
          password: v.password,
          new_password: v.new_password,
        }),
      );
    },
  );
  return (
    <Form layout="vertical" onFinish={submit} requiredMark={false}>
      <Typography.Paragraph>{t('login.mustChange')}</Typography.Paragraph>
      {error ? <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} /> : null}
      <Form.Item
        name="password"
        label={t('login.currentPassword')}
        rules={[{ required: true, message: t('login.passwordRequired') }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="new_password"
        label={t('login.newPassword')}
        rules={[{ required: true, min: 10, message: t('login.newPasswordRule') }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('login.confirmPassword')}
        dependencies={['new_password']}
        rules={[
          { required: true, message: t('login.confirmRequired') },
          ({ getFieldValue }) => ({
            validator: (_, v) =>
              v === getFieldValue('new_password')
                ? Promise.resolve()
                : Promise.reject(new Error(t('login.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('login.changeSubmit')}
      </Button>
    </Form>
  );
}

function CodeForm({ onCode, submitKey }: { onCode: (code: string) => Promise<void>; submitKey: string }) {
  const { t } = useTranslation();
  const { busy, error, submit } = useSubmit<{ code: string }>((v) => onCode(v.code.trim()));
  return (
    <Form layout="vertical" onFinish={submit} requiredMark={false}>
      {error ? <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} /> : null}
      <Form.Item
        name="code"
        label={t('login.code')}
        rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('login.codeRule') }]}
      >
        <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} autoFocus />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t(submitKey)}
      </Button>
    </Form>
  );
}

function EnrolTotp({ pending, onDone }: { pending: Pending; onDone: (s: OperatorAuthState) => void }) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .postWith<TotpSetup>(pending.token, AdminPaths.totpSetup)
      .then(setSetup)
      .catch((e: unknown) => setError(e instanceof ApiError ? e.message : t('common.serverError')));
  }, [pending.token, t]);
  if (error) return <Alert type="error" title={error} showIcon />;
  if (!setup) return <Typography.Paragraph>{t('common.loading')}</Typography.Paragraph>;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Paragraph>{t('login.enrolIntro')}</Typography.Paragraph>
      <div style={{ textAlign: 'center' }}>
        <QRCodeSVG value={setup.uri} size={184} marginSize={2} title={t('login.qrTitle')} />
      </div>
      <Typography.Paragraph>
        {t('login.secretByHand')}{' '}
        <Typography.Text code copyable data-testid="totp-secret">
          {setup.secret}
        </Typography.Text>
      </Typography.Paragraph>
      <CodeForm
        submitKey="login.enrolSubmit"
        onCode={async (code) =>
          onDone(await api.postWith<OperatorAuthState>(pending.token, AdminPaths.totpEnable, { code }))
        }
      />
    </Space>
  );
}

export function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { message } = App.useApp();
  const [pending, setPending] = useState<Pending | null>(null);
  const next = safeNext(params.get('next'));

  if (session && !pending) return <Navigate to={next} replace />;

  const advance = (token: string, state: OperatorAuthState) => {
    if (state.stage === 'ready') {
      saveSession({ token, operator: state.operator });
      void message.success(t('login.welcome', { name: state.operator.username }));
      navigate(next, { replace: true });
    } else setPending({ token, ...state });
  };

  const titles: Record<OperatorSessionStage, string> = {
    password: t('login.changeTitle'),
    totp_setup: t('login.enrolTitle'),
    totp: t('login.codeTitle'),
    ready: t('login.title'),
  };

  let body: React.ReactNode;
  if (!pending) body = <Credentials onDone={(r) => advance(r.token, r)} />;
  else if (pending.stage === 'password')
    body = <ChangePassword pending={pending} onDone={(s) => advance(pending.token, s)} />;
  else if (pending.stage === 'totp_setup')
    body = <EnrolTotp pending={pending} onDone={(s) => advance(pending.token, s)} />;
  else
    body = (
      <CodeForm
        submitKey="login.codeSubmit"
        onCode={async (code) =>
          advance(
            pending.token,
            await api.postWith<OperatorAuthState>(pending.token, AdminPaths.totpVerify, { code }),
          )
        }
      />
    );

  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f5f7f6' }}>
      <div style={{ width: 400, maxWidth: '92vw' }}>
        <div
          style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 }}
        >
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('shell.brand')}
          </Typography.Title>
          <LanguageSelect />
        </div>
        <Card
          title={
            <h1 style={{ fontSize: 16, margin: 0 }}>{pending ? titles[pending.stage] : titles.ready}</h1>
          }
        >
          {body}
          {pending ? (
            <Button type="link" block style={{ marginTop: 8 }} onClick={() => setPending(null)}>
              {t('login.startOver')}
            </Button>
          ) : null}
        </Card>
      </div>
    </main>
  );
}
