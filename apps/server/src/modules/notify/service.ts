import type { CodePurpose, Lang } from '@verdant/api';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import { t } from '../../i18n/index.ts';

export interface CodeMessage {
  channel: 'mobile' | 'email';
  /** '+66 812345678' or an e-mail address */
  target: string;
  code: string;
  purpose: CodePurpose;
  lang: Lang;
}

/** Delivers verification codes; which transport depends on configuration. */
export interface Notifier {
  sendCode(msg: CodeMessage): Promise<void>;
}

/**
 * SMTP e-mail when SMTP_URL is set; an HTTP hook for an SMS provider when SMS_WEBHOOK_URL is
 * set; otherwise the code is written to the server log, so a fresh install works offline.
 */
export function createNotifier(config: Config, log: FastifyBaseLogger): Notifier {
  const mail = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  return {
    async sendCode(msg) {
      const params = { code: msg.code, minutes: Math.round(config.codeTtlSeconds / 60) };
      if (msg.channel === 'email' && mail) {
        await mail.sendMail({
          from: config.smtpFrom,
          to: msg.target,
          subject: t(msg.lang, 'codes.mailSubject'),
          text: t(msg.lang, 'codes.mailBody', params),
        });
        return;
      }
      if (msg.channel === 'mobile' && config.smsWebhookUrl) {
        const res = await fetch(config.smsWebhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            to: msg.target,
            text: t(msg.lang, 'codes.smsBody', params),
            purpose: msg.purpose,
          }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) throw new Error(`SMS hook answered ${res.status}`);
        return;
      }
      log.info(
        { channel: msg.channel, to: msg.target, purpose: msg.purpose },
        `verification code ${msg.code}`,
      );
    },
  };
}
