import type { FastifyError, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';

const fileRequired = () => new AppError('VALIDATION', 'errors.fileRequired', {}, 'file');

/** The bytes of the uploaded picture (the first file part). */
export async function readPicture(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw fileRequired();
  try {
    const file = await req.file();
    if (!file) throw fileRequired();
    return await file.toBuffer();
  } catch (err) {
    // Our own errors and the plugin's (FST_*: size and count limits) are answered as they are.
    // Anything else is the multipart parser failing on what the client sent (no boundary, a
    // truncated or garbled body): a 400, not a 500.
    if (err instanceof AppError || (err as FastifyError).code?.startsWith('FST_')) throw err;
    throw new AppError('VALIDATION', 'errors.malformedBody');
  }
}
