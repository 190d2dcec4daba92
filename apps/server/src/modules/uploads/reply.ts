import type { FastifyReply } from 'fastify';

const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/**
 * Sends a stored picture. Its type is the one sniffed from its bytes at upload, and the browser
 * may not guess another (nosniff); it is shown inline under a fixed name that says nothing about
 * the user or the original file; and, opened on its own, it runs nothing and can't be framed.
 */
export function sendPicture(
  reply: FastifyReply,
  file: { mime: string; bytes: Buffer },
  cacheControl: string,
): FastifyReply {
  return reply
    .type(file.mime)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `inline; filename="picture.${EXT[file.mime] ?? 'bin'}"`)
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'; sandbox")
    .header('cache-control', cacheControl)
    .send(file.bytes);
}
