import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** One year: browsers keep to HTTPS that long after an answer over TLS (no preload list). */
export const HSTS = 'max-age=31536000; includeSubDomains';

// a Host header we can safely name in the policy: a name or an IP address, and a port
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/**
 * The socket connection of the page's own host. 'self' covers it in current browsers (CSP 3),
 * older Safari reads 'self' as http(s) only, so the ws(s) form is named as well.
 */
function ownSockets(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return HOST.test(host) ? `ws://${host} wss://${host}` : '';
}

/**
 * Security headers on every answer (the web app, the API, the documentation, uploads):
 * a Content-Security-Policy that runs only the server's own script files and the inline scripts
 * named by their hash in `inlineScripts` (the web app's early script: http/static.ts), no eval,
 * frames nowhere, nosniff, no Referer, and HSTS when the request came over TLS.
 * Choices and reasons: docs/decisions.md, "Security headers".
 */
export const securityHeaders = fp(async function securityHeaders(
  app: FastifyInstance,
  opts: { inlineScripts?: readonly string[] },
) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(opts.inlineScripts ?? [])],
        scriptSrcAttr: ["'none'"],
        // the documentation page's UI injects <style> elements; a style cannot run script
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", (req) => ownSockets(req as IncomingMessage)],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // upgrade-insecure-requests is left out: a server reached over plain HTTP on a LAN
        // address would have its own assets upgraded to an HTTPS it does not speak
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // sent by the hook below, only when the request arrived over TLS
    hsts: false,
  });

  // req.protocol is https for a TLS socket, or behind a trusted proxy (TRUST_PROXY=1) that says so
  app.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
});
