import type { CodePurpose } from '@verdant/api';
import { Button, Toast } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';
import { type CodeTarget, RESEND_SECONDS, sendCode } from '../verification-code';

interface Props {
  purpose: CodePurpose;
  /** Validates the phone or e-mail field and returns where to send, or null to stop. */
  getTarget: () => Promise<CodeTarget | null> | CodeTarget | null;
  disabled?: boolean;
}

/** "Send code" with the server's resend countdown (data.resend_in seconds). */
export function SendCodeButton({ purpose, getTarget, disabled }: Props) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  // Counts against a deadline, so a tab left in the background still shows the true wait.
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const t2 = Date.now();
      setNow(t2);
      if (t2 >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);

  const left = Math.max(0, Math.ceil((until - now) / 1000));

  async function onClick() {
    const target = await getTarget();
    if (!target) return;
    setSending(true);
    try {
      const result = await sendCode(target, purpose);
      Toast.show({ icon: 'success', content: t('common.sendSuccess') });
      setNow(Date.now());
      setUntil(Date.now() + (result.resend_in > 0 ? result.resend_in : RESEND_SECONDS) * 1000);
    } catch (e) {
      // the client already showed the server's message
      if (!(e instanceof ApiError)) throw e;
    } finally {
      setSending(false);
    }
  }

  return (
    <Button
      size="small"
      fill="none"
      color="primary"
      className="v-send-code"
      loading={sending}
      disabled={disabled || left > 0}
      onClick={onClick}
    >
      {left > 0 ? t('auth.resendIn', { count: left }) : t('auth.sendCode')}
    </Button>
  );
}
