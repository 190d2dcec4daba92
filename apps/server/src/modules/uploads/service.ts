import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';

/** Pictures only: the type is read from the bytes, never from the name or the client's claim. */
const ALLOWED = new Map([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
]);
const NAME_RE = /^[a-f0-9]{32}\.(jpg|png|webp)$/;

const HOUR = 3_600_000;
/** How many orphans one sweep removes at most (the next sweep takes the rest). */
const SWEEP_BATCH = 1000;
/** Advisory lock keys, scoped to the schema so servers on other schemas never wait on each other. */
const USER_LOCK = "hashtext('verdant.uploads.user:' || coalesce(current_schema(), ''))";
const SWEEP_LOCK = "hashtext('verdant.uploads.sweep'), hashtext(coalesce(current_schema(), ''))";

function sizeLabel(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/**
 * `NOT EXISTS` conditions over every column that refers to an upload, found from the schema's
 * foreign keys to uploads (deposits' vouchers, verifications' photos, and whatever later refers
 * to an upload the same way), so a new use of uploads cannot be forgotten here.
 */
async function unreferencedCondition(q: Queryable): Promise<string> {
  const refs = await q.query<{ tbl: string; col: string }>(
    `SELECT c.conrelid::regclass::text AS tbl, quote_ident(a.attname) AS col
       FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.contype = 'f' AND c.confrelid = 'uploads'::regclass
      ORDER BY 1, 2`,
  );
  if (refs.length === 0) return 'true';
  return refs.map((r) => `NOT EXISTS (SELECT 1 FROM ${r.tbl} r WHERE r.${r.col} = u.name)`).join(' AND ');
}

export interface SweepResult {
  /** Upload rows removed (and their files). */
  rows: number;
  /** Files on disk with no row (a save cut short) removed. */
  strays: number;
}

export interface StoredUpload {
  name: string;
  mime: string;
  size: number;
}

export function uploadsService(ctx: AppContext) {
  const dir = join(ctx.config.dataDir, 'uploads');
  let condition: Promise<string> | null = null;
  const unreferenced = () => {
    condition ??= unreferencedCondition(ctx.db).catch((err) => {
      condition = null;
      throw err;
    });
    return condition;
  };
  let sweeping: Promise<SweepResult> | null = null;

  /**
   * Removes uploads nothing refers to once they are `uploadOrphanHours` old, rows and files, and
   * files of that age that have no row. One sweep at a time: in this process by the promise,
   * across processes by an advisory lock (a sweep finding it taken does nothing).
   */
  async function sweepOnce(nowMs: number): Promise<SweepResult> {
    const cutoff = new Date(nowMs - ctx.config.uploadOrphanHours * HOUR).toISOString();
    const unused = await unreferenced();
    const removed = await ctx.db.tx(async (q) => {
      const [lock] = await q.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS ok`);
      if (!lock?.ok) return null;
      // rows a request is using right now (a deposit being written locks its voucher) are
      // skipped; one referred to by a row committed meanwhile fails the foreign key, and the
      // whole sweep with it: nothing is lost, the next sweep tries again
      return (
        await q.query<{ name: string }>(
          `DELETE FROM uploads WHERE name IN (
             SELECT u.name FROM uploads u WHERE u.created_at < $1 AND ${unused}
              ORDER BY u.created_at LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)
           RETURNING name`,
          [cutoff],
        )
      ).map((r) => r.name);
    });
    if (removed === null) return { rows: 0, strays: 0 };
    for (const name of removed) await unlink(join(dir, name)).catch(ignoreMissing);
    return { rows: removed.length, strays: await sweepStrays(nowMs) };
  }

  /** Files of the uploads folder older than the cut-off that have no row. */
  async function sweepStrays(nowMs: number): Promise<number> {
    const cutoffMs = nowMs - ctx.config.uploadOrphanHours * HOUR;
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => NAME_RE.test(n));
    let strays = 0;
    for (let i = 0; i < names.length; i += SWEEP_BATCH) {
      const part = names.slice(i, i + SWEEP_BATCH);
      const known = new Set(
        (await ctx.db.query<{ name: string }>('SELECT name FROM uploads WHERE name = ANY ($1)', [part])).map(
          (r) => r.name,
        ),
      );
      for (const name of part) {
        if (known.has(name)) continue;
        const info = await stat(join(dir, name)).catch(() => null);
        if (!info || info.mtimeMs >= cutoffMs) continue;
        await unlink(join(dir, name)).catch(ignoreMissing);
        strays += 1;
      }
    }
    return strays;
  }

  return {
    async save(ownerId: number, bytes: Buffer): Promise<StoredUpload> {
      if (bytes.length === 0) throw new AppError('VALIDATION', 'errors.fileRequired', {}, 'file');
      const type = await fileTypeFromBuffer(bytes);
      const ext = type && ALLOWED.get(type.mime);
      if (!type || !ext) throw new AppError('UNSUPPORTED_FILE', 'errors.fileType', {}, 'file');
      // random names: nothing about the user or the original file name is exposed or guessable
      const name = `${randomBytes(16).toString('hex')}.${ext}`;
      const unused = await unreferenced();
      // the quota is checked and the row written under a per-user lock: parallel uploads queue
      await ctx.db.tx(async (q) => {
        await q.query(`SELECT pg_advisory_xact_lock(${USER_LOCK}, $1::int)`, [ownerId]);
        const [use] = await q.query<{ recent: number; minutes: number | null; unused: string }>(
          `SELECT count(*) FILTER (WHERE u.created_at > now() - interval '1 hour')::int AS recent,
                  ceil(extract(epoch FROM min(u.created_at) FILTER (WHERE u.created_at > now() - interval '1 hour')
                    + interval '1 hour' - now()) / 60)::int AS minutes,
                  coalesce(sum(u.size) FILTER (WHERE ${unused}), 0)::text AS unused
             FROM uploads u WHERE u.owner_user_id = $1`,
          [ownerId],
        );
        if (use && use.recent >= ctx.config.uploadsPerHour)
          throw new AppError(
            'RATE_LIMITED',
            'errors.uploadsPerHour',
            { limit: ctx.config.uploadsPerHour, minutes: Math.max(1, use.minutes ?? 60) },
            'file',
          );
        if (use && Number(use.unused) + bytes.length > ctx.config.uploadUnusedMaxBytes)
          throw new AppError(
            'RATE_LIMITED',
            'errors.uploadsUnusedFull',
            { limit: sizeLabel(ctx.config.uploadUnusedMaxBytes), hours: ctx.config.uploadOrphanHours },
            'file',
          );
        await q.query('INSERT INTO uploads (name, owner_user_id, mime, size) VALUES ($1, $2, $3, $4)', [
          name,
          ownerId,
          type.mime,
          bytes.length,
        ]);
      });
      // the row first, then the file: a file is never on disk without its row for long (the
      // sweep removes such strays), and a failed write takes its row back
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, name), bytes, { flag: 'wx' });
      } catch (err) {
        await ctx.db.query('DELETE FROM uploads WHERE name = $1', [name]);
        throw err;
      }
      return { name, mime: type.mime, size: bytes.length };
    },

    /** The file, when `ownerId` owns it. Someone else's file answers "not found", not "forbidden". */
    async read(ownerId: number, name: string): Promise<{ mime: string; bytes: Buffer }> {
      if (!NAME_RE.test(name)) throw new AppError('NOT_FOUND', 'errors.notFound');
      const [row] = await ctx.db.query<{ mime: string }>(
        'SELECT mime FROM uploads WHERE name = $1 AND owner_user_id = $2',
        [name, ownerId],
      );
      if (!row) throw new AppError('NOT_FOUND', 'errors.notFound');
      return { mime: row.mime, bytes: await readFile(join(dir, name)) };
    },

    /** Any user's file, for operators reviewing vouchers and identity photos (never for users). */
    async readAny(name: string): Promise<{ mime: string; bytes: Buffer }> {
      if (!NAME_RE.test(name)) throw new AppError('NOT_FOUND', 'errors.notFound');
      const [row] = await ctx.db.query<{ mime: string }>('SELECT mime FROM uploads WHERE name = $1', [name]);
      if (!row) throw new AppError('NOT_FOUND', 'errors.notFound');
      return { mime: row.mime, bytes: await readFile(join(dir, name)) };
    },

    /** One sweep of orphaned uploads (see sweepOnce); a call while one runs shares its answer. */
    sweep(nowMs = Date.now()): Promise<SweepResult> {
      sweeping ??= sweepOnce(nowMs).finally(() => {
        sweeping = null;
      });
      return sweeping;
    },

    /** The sweep under way, if any (so a stopping server lets it finish). */
    get sweeping(): Promise<unknown> {
      return sweeping ?? Promise.resolve();
    },

    /** For forms that reference an upload: it must exist and belong to the user. */
    async assertOwned(ownerId: number, name: string | undefined, field: string): Promise<string> {
      if (!name || !NAME_RE.test(name)) throw new AppError('VALIDATION', 'errors.fileRequired', {}, field);
      const [row] = await ctx.db.query('SELECT 1 FROM uploads WHERE name = $1 AND owner_user_id = $2', [
        name,
        ownerId,
      ]);
      if (!row) throw new AppError('VALIDATION', 'errors.fileRequired', {}, field);
      return name;
    },
  };
}
function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err;
}

export type UploadsService = ReturnType<typeof uploadsService>;

// Answering with a stored picture, and reading one from a multipart body, for other modules' routes too.
export { readPicture } from './multipart.ts';
export { sendPicture } from './reply.ts';
