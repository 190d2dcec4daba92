import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Body fields of this route that are free text and may hold line breaks and tabs
     * (every other field is one line; see docs/decisions.md, "Control characters").
     */
    multilineFields?: readonly string[];
  }
}

// C0 controls, DEL and C1 controls. Nobody types them; PostgreSQL refuses NUL in text outright
// (a 500 before this check), and the rest break logs, CSV exports and what an operator sees.
function isControl(c: number): boolean {
  return c <= 0x1f || (c >= 0x7f && c <= 0x9f);
}

/** Whether `s` holds a control character; tab, line feed and carriage return pass when `lines`. */
function hasControl(s: string, lines = false): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isControl(c) && !(lines && (c === 0x09 || c === 0x0a || c === 0x0d))) return true;
  }
  return false;
}

/** A name that is itself the problem, tamed for echoing back: controls replaced, kept short. */
function tame(name: string): string {
  let out = '';
  for (const ch of name.slice(0, 64)) out += isControl(ch.charCodeAt(0)) ? '\uFFFD' : ch;
  return out;
}

/**
 * The top-level field of `input` holding a control character (in a value, however deeply
 * nested, or in a name), or null. Iterative, so a deeply nested JSON body cannot overflow the stack.
 */
export function fieldWithControlCharacter(input: unknown, multiline: ReadonlySet<string>): string | null {
  if (input === null || typeof input !== 'object') return null;
  const stack: [unknown, string][] = [];
  for (const [key, value] of Object.entries(input)) {
    if (hasControl(key)) return key;
    stack.push([value, key]);
  }
  while (stack.length > 0) {
    const [value, field] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (hasControl(value, multiline.has(field))) return field;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (hasControl(key)) return field;
        stack.push([inner, field]);
      }
    }
  }
  return null;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Refuses control characters in the path parameters, query and body of every request, once
 * the body is parsed and before the route's schema, session check or handler run: a 400 in the
 * envelope naming the field, and nothing done. Headers need no check here: Node's HTTP parser
 * already refuses control characters in them (answered by clientErrorHandler). Multipart parts
 * are streamed to the handler, which reads only the file (its bytes may hold anything; its
 * client-side name is never used).
 */
export function rejectControlCharacters(app: FastifyInstance) {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const lines = req.routeOptions.config?.multilineFields;
    const multiline = lines ? new Set(lines) : NONE;
    for (const part of [req.params, req.query, req.body]) {
      const field = fieldWithControlCharacter(part, part === req.body ? multiline : NONE);
      if (field !== null) {
        const name = tame(field);
        throw new AppError('VALIDATION', 'errors.controlCharacter', { field: name }, name);
      }
    }
  });
}
