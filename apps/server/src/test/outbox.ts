import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Delivered {
  channel: 'email' | 'mobile';
  to: string;
  text: string;
  subject?: string;
}

/**
 * Where codes arrive in tests: a real SMTP server (nodemailer talks SMTP to it) and a real HTTP
 * server for the SMS hook, both on loopback. Nothing in the sending path is mocked.
 */
export async function startOutbox() {
  const messages: Delivered[] = [];

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const [head = '', ...body] = raw.split(/\r?\n\r?\n/);
        const subject = /^Subject: (.*)$/im.exec(head)?.[1];
        const text = decodeBody(head, body.join('\n\n'));
        for (const rcpt of session.envelope.rcptTo) {
          messages.push({
            channel: 'email',
            to: rcpt.address.toLowerCase(),
            text,
            ...(subject ? { subject } : {}),
          });
        }
        done();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const sms: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const { to, text } = JSON.parse(body) as { to: string; text: string };
      messages.push({ channel: 'mobile', to, text });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => sms.listen(0, '127.0.0.1', r));
  const smsPort = (sms.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    smsWebhookUrl: `http://127.0.0.1:${smsPort}/sms`,
    messages,
    /** The 6-digit code of the newest message to `to` ('a@b.co' or '+66 812345678'). */
    lastCode(to: string): string {
      const m = [...messages].reverse().find((x) => x.to === to.toLowerCase());
      const code = m && /\b(\d{6})\b/.exec(m.text)?.[1];
      if (!code) throw new Error(`no code delivered to ${to}`);
      return code;
    },
    async close() {
      await new Promise<void>((r) => smtp.close(() => r()));
      await new Promise<void>((r) => sms.close(() => r()));
    },
  };
}

/** Enough MIME for our own plain-text mails: quoted-printable or base64 bodies. */
function decodeBody(head: string, body: string): string {
  const enc = /^Content-Transfer-Encoding: (.*)$/im.exec(head)?.[1]?.trim().toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}
export type Outbox = Awaited<ReturnType<typeof startOutbox>>;
