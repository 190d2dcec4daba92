import { Type } from '@sinclair/typebox';
import { Ok, Paths, UploadResult } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { readPicture } from './multipart.ts';
import { sendPicture } from './reply.ts';
import { uploadsService } from './service.ts';

/**
 * The multipart body, for the OpenAPI document. The picture is streamed by `req.file()`, so
 * `req.body` stays empty (null to the validator): the schema describes the part without
 * requiring a parsed body; a missing file is answered by the handler in the user's language.
 */
const UploadBody = {
  type: 'object',
  nullable: true,
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: 'A JPEG, PNG or WebP picture' } },
};

export default async function uploadRoutes(app: FastifyInstance) {
  const uploads = uploadsService(app.ctx);
  const auth = requireUser(app);

  // the orphan sweep (see uploadsService.sweep), on a timer while the server runs
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    const every = app.ctx.config.uploadSweepMs;
    if (every <= 0) return;
    timer = setInterval(() => {
      uploads.sweep().then(
        (r) => {
          if (r.rows + r.strays > 0) app.log.info(r, 'uploads: orphans removed');
        },
        (err) => app.log.error({ err }, 'uploads: sweep failed'),
      );
    }, every);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await uploads.sweeping.catch(() => {});
  });

  app.post(`/${Paths.upload}`, {
    preHandler: auth,
    schema: {
      tags: ['files'],
      summary: 'Upload a picture (JPEG, PNG or WebP; multipart field "file"); private to its owner',
      security: [{ session: [] }],
      consumes: ['multipart/form-data'],
      body: { content: { 'multipart/form-data': { schema: UploadBody } } },
      response: { 200: Ok(UploadResult) },
    },
    handler: async (req) => {
      const bytes = await readPicture(req);
      const saved = await uploads.save(userId(req), bytes);
      return ok(req, { ...saved, url: `/api/${Paths.upload}/${saved.name}` }, 'common.uploaded');
    },
  });

  app.get(`/${Paths.upload}/:name`, {
    preHandler: auth,
    schema: {
      tags: ['files'],
      summary: "Fetch one of the caller's own uploads",
      security: [{ session: [] }],
      params: Type.Object({ name: Type.String({ maxLength: 64 }) }),
    },
    handler: async (req, reply) => {
      const { name } = req.params as { name: string };
      const file = await uploads.read(userId(req), name);
      return sendPicture(reply, file, 'private, max-age=3600');
    },
  });
}
