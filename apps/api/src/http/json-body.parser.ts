// Request bodies are bounded before they become objects: bytes per route (fastify's bodyLimit),
// then UTF-8 and the count of JSON values checked on the raw bytes. A 12 MiB `[{},{},…]` is four
// million objects, several hundred MB of heap; refusing it costs one pass over its bytes.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';

/**
 * An error raised before a handler runs, which fastify and mercurius both answer with its status;
 * `code` (else the status's framework code) is what the client reads (see the error mappers).
 */
export function httpError(
  statusCode: number,
  message: string,
  code?: string,
): Error & { statusCode: number; apiCode?: string } {
  return Object.assign(new Error(message), { statusCode, ...(code ? { apiCode: code } : {}) });
}

/**
 * Values a JSON text holds, roughly (containers plus separators), counted outside strings
 * without parsing; stops once past `max`.
 */
export function countJsonValues(bytes: Uint8Array, max: number): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // backslash: the next byte is escaped
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x2c || byte === 0x7b || byte === 0x5b) {
      if (++count > max) return count;
    }
  }
  return count;
}

/** 1 for the bytes countJsonValues counts outside strings: `,`, `{` and `[`. */
const SEPARATOR = new Uint8Array(256);
SEPARATOR[0x2c] = SEPARATOR[0x7b] = SEPARATOR[0x5b] = 1;

/**
 * Those bytes counted inside strings too: an upper bound of countJsonValues without its string
 * state, a third of its cost (a table lookup per byte, no branch). Every PUT of 10,000 URLs
 * passes on this alone; only a body near the limit takes the exact count.
 */
export function countSeparatorBytes(bytes: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) count += SEPARATOR[bytes[i] as number] as number;
  return count;
}

/** Checks a JSON body's bytes; throws the 400 or 413 to answer with. */
export function checkJsonBody(body: Buffer, maxValues: number): void {
  if (!isUtf8(body)) throw httpError(400, 'the body is not valid UTF-8');
  if (countSeparatorBytes(body) > maxValues && countJsonValues(body, maxValues) > maxValues) {
    throw httpError(
      413,
      `the body holds more than ${maxValues.toLocaleString('en-US')} JSON values (API_JSON_MAX_VALUES)`,
    );
  }
}

/**
 * Whether a body may name `__proto__` or `constructor` as a key, which fastify's parser
 * (secure-json-parse) then checks with two regular expressions over the whole text. Without a
 * `\u` escape a key can only spell them literally, and a byte search finds that several times
 * faster than those expressions: the bodies that pass go to JSON.parse alone.
 */
export function mayPoisonPrototypes(body: Buffer): boolean {
  return body.includes('\\u') || body.includes('__proto__') || body.includes('constructor');
}

const MISS = Symbol('not JSON');

function parseOrMiss(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return MISS;
  }
}

/** application/json through the checks above, then fastify's own parser (prototype poisoning refused). */
export function registerJsonBodyParser(fastify: FastifyInstance, maxValues: number): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  if (fastify.hasContentTypeParser('application/json')) fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      checkJsonBody(body as Buffer, maxValues);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    const text = (body as Buffer).toString('utf8');
    if (!mayPoisonPrototypes(body as Buffer)) {
      const parsed = parseOrMiss(text);
      // Not JSON (or a BOM): fastify's parser below gives the error it always gave.
      if (parsed !== MISS) return done(null, parsed);
    }
    // fastify's default JSON parser answers through `done`; its type also allows a promise, which
    // this one never returns (it is synchronous), so there is nothing to await.
    void parse(request, text, done);
  });
}
