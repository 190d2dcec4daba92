import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupportAck, SupportMessage } from '@verdant/api';
import { type Socket as ClientSocket, io as connectTo } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { createOperator } from '../modules/admin/operators.ts';
import { currentCode } from '../modules/admin/signin.ts';
import { TEST_TOTP_SECRET } from '../modules/admin/testing.ts';
import { freePort, postForm, seedTraders, startServer } from '../modules/spot/load.ts';

/**
 * The help centre's chat across two server processes on one PostgreSQL schema and one Redis:
 * a user's socket on one process and support's on the other hear each other (every emit goes
 * through app.io and its Redis adapter). Needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL).
 */
const url = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe.skipIf(!url)(
  'the chat across two processes (skipped without DATABASE_URL)',
  { timeout: 180_000 },
  () => {
    const schema = `chat_${randomBytes(5).toString('hex')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'verdant-chat-cluster-'));
    const env = {
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl,
      CLUSTER_POLL_MS: '200',
    };
    const procs: { port: number; child: ChildProcess }[] = [];
    const sockets: ClientSocket[] = [];
    const agent = new http.Agent({ keepAlive: true });
    let db: Db;
    let user: { id: number; token: string };
    let opToken: string;

    const base = (i: number) => `http://127.0.0.1:${procs[i]!.port}`;
    const connect = (i: number, token: string, ns = '') =>
      new Promise<ClientSocket>((resolve, reject) => {
        const s = connectTo(`${base(i)}${ns}`, {
          path: '/socket.io',
          forceNew: true,
          reconnection: false,
          transports: ['websocket'],
          auth: { token },
        });
        sockets.push(s);
        s.once('connect', () => resolve(s));
        s.once('connect_error', reject);
      });
    const next = <T>(s: ClientSocket, event: string) => new Promise<T>((r) => s.once(event, r));

    beforeAll(async () => {
      db = await openDb({ url, schema });
      await migrate(db);
      user = (await db.tx((q) => seedTraders(q, 1, { usdt: '1', btc: '1' })))[0]!;
      await createOperator(db, { username: 'desk', password: 'a long passphrase', role: 'support' });
      // as after the first login's steps: password changed, TOTP enrolled with a known secret
      await db.query(
        'UPDATE operators SET must_change_password = false, totp_secret = $1 WHERE username = $2',
        [TEST_TOTP_SECRET, 'desk'],
      );
      for (let i = 0; i < 2; i += 1) {
        const port = await freePort();
        procs.push({ port, child: await startServer(env, port) });
      }
      const login = await postForm(agent, procs[1]!.port, 'admin/login', '', {
        username: 'desk',
        password: 'a long passphrase',
      });
      opToken = JSON.parse(login.body).data.token;
      const verified = await postForm(agent, procs[1]!.port, 'admin/totp/verify', opToken, {
        code: currentCode('desk', TEST_TOTP_SECRET),
      });
      expect(verified.status, verified.body).toBe(200);
    });

    afterAll(async () => {
      for (const s of sockets) s.disconnect();
      agent.destroy();
      for (const p of procs) p.child.kill('SIGKILL');
      await Promise.all(
        procs.map((p) => new Promise((r) => (p.child.exitCode === null ? p.child.once('exit', r) : r(null)))),
      );
      await db.query(`DROP SCHEMA ${schema} CASCADE`);
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('a user on one process and support on the other hear each other live', async () => {
      const phone = await connect(0, user!.token);
      const desk = await connect(1, opToken, '/operators');
      const atDesk = next<SupportMessage>(desk, 'support:message');
      const ack = (await phone.emitWithAck('support:send', { text: 'across processes' })) as SupportAck;
      expect(ack.ok).toBe(true);
      expect((await atDesk).text).toBe('across processes');

      const onPhone = next<SupportMessage>(phone, 'support:message');
      const conversationId = String((await atDesk).conversation_id);
      const reply = await postForm(agent, procs[1]!.port, 'admin/support/reply', opToken, {
        conversation_id: conversationId,
        text: 'heard you',
      });
      expect(reply.status, reply.body).toBe(200);
      expect(await onPhone).toMatchObject({ text: 'heard you', sender: 'support' });
    });

    it('what support wrote while the user was away is read through the other process', async () => {
      const conversations = await fetch(`${base(1)}/api/admin/support/conversations`, {
        headers: { authorization: opToken },
      });
      const id = ((await conversations.json()) as { data: { items: { id: number }[] } }).data.items[0]!.id;
      const reply = await postForm(agent, procs[1]!.port, 'admin/support/reply', opToken, {
        conversation_id: String(id),
        text: 'while you were away',
      });
      expect(reply.status).toBe(200);
      const unread = await fetch(`${base(0)}/api/support/unread`, {
        headers: { authorization: user!.token },
      });
      expect(((await unread.json()) as { data: { unread: number } }).data.unread).toBe(2);
    });
  },
);
