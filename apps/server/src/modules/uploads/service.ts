import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';

/** Pictures only: the type is read from the bytes, never from the name or the client's claim. */
const ALLOWED = new Map([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
]);
const NAME_RE = /^[a-f0-9]{32}\.(jpg|png|webp)$/;

export interface StoredUpload {
  name: string;
  mime: string;
  size: number;
}

export function uploadsService(ctx: AppContext) {
  const dir = join(ctx.config.dataDir, 'uploads');

  return {
    async save(ownerId: number, bytes: Buffer): Promise<StoredUpload> {
      if (bytes.length === 0) throw new AppError('VALIDATION', 'errors.fileRequired', {}, 'file');
      const type = await fileTypeFromBuffer(bytes);
      const ext = type && ALLOWED.get(type.mime);
      if (!type || !ext) throw new AppError('UNSUPPORTED_FILE', 'errors.fileType', {}, 'file');
      // random names: nothing about the user or the original file name is exposed or guessable
      const name = `${randomBytes(16).toString('hex')}.${ext}`;
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), bytes, { flag: 'wx' });
      await ctx.db.query('INSERT INTO uploads (name, owner_user_id, mime, size) VALUES ($1, $2, $3, $4)', [
        name,
        ownerId,
        type.mime,
        bytes.length,
      ]);
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
export type UploadsService = ReturnType<typeof uploadsService>;
