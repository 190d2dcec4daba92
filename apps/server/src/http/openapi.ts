import type { SwaggerOptions } from '@fastify/swagger';
import { ErrorEnvelope, LANG_HEADER, LANGS, NotLoggedInEnvelope } from '@verdant/api';

type Json = Record<string, unknown>;

const LANG_PARAMETER = { $ref: '#/components/parameters/lang' };
const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });

/** Whether an operation can only be called with a session (an optional one lists `{}` too). */
function needsSession(op: Json): boolean {
  const security = op.security as Json[] | undefined;
  return !!security?.length && security.every((s) => Array.isArray(s.session));
}

/**
 * What every operation shares, added once over the whole document instead of in each route:
 * the `lang` header, the error envelope for 4xx and 5xx answers, and the 401 of the session
 * check wherever a session is required.
 */
function withCommonParts(doc: Json): Json {
  for (const ops of Object.values((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(ops)) {
      const params = (op.parameters ?? []) as Json[];
      if (!params.some((p) => p.in === 'header' && p.name === LANG_HEADER))
        op.parameters = [...params, LANG_PARAMETER];
      const responses = (op.responses ?? {}) as Json;
      if (needsSession(op))
        responses['401'] ??= {
          description: 'No live session: the token is missing, logged out, revoked or expired',
          content: json('ApiNotLoggedIn'),
        };
      responses['4XX'] ??= {
        description:
          'Refused (bad input, a broken rule, not found, too many attempts…); nothing was changed. ' +
          '`message` says why in the user’s language, `field` names the input at fault',
        content: json('ApiError'),
      };
      responses['5XX'] ??= {
        description: 'Failed on the server’s side (details are logged, never sent); try again later',
        content: json('ApiError'),
      };
      op.responses = responses;
    }
  }
  return doc;
}

/** The OpenAPI document served at /api/docs. */
export const openapiOptions: SwaggerOptions = {
  // bodies are form-encoded first, JSON accepted too (Fastify's default would list JSON only)
  transform: ({ schema, url }) => ({
    schema:
      schema?.body && !schema.consumes
        ? { ...schema, consumes: ['application/x-www-form-urlencoded', 'application/json'] }
        : schema,
    url,
  }),
  transformObject: (doc) =>
    'openapiObject' in doc ? withCommonParts(doc.openapiObject as Json) : doc.swaggerObject,
  openapi: {
    info: {
      title: 'Verdant API',
      version: '0.1.0',
      description:
        'Every answer is in the envelope { type, code, message, data }. Send the session token ' +
        'as the `Authorization` header (as it is; a `Bearer ` prefix is accepted too) and the ' +
        'display language as the `lang` header.',
    },
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The token answered by user/login or user/register (operators: admin/login)',
        },
      },
      parameters: {
        lang: {
          name: LANG_HEADER,
          in: 'header',
          required: false,
          description: 'Language of the answer’s messages and names (Thai when absent or unknown)',
          schema: { type: 'string', enum: [...LANGS], default: 'th' },
        },
      },
      schemas: {
        ApiError: ErrorEnvelope as unknown as Json,
        ApiNotLoggedIn: NotLoggedInEnvelope as unknown as Json,
      },
    },
  },
};
