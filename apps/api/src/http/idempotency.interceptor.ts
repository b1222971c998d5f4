// `Idempotency-Key` on the POSTs that create (sites, builds, imports, webhooks): the first request
// with a key reserves it for the tenant and its answer is stored; a retry with the same key and the
// same request gets that answer again (status, body, Location, and `Idempotent-Replayed: true`);
// the same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first is still
// running, 409 IDEMPOTENCY_KEY_IN_USE. A request that fails gives its key back. Keys live
// IDEMPOTENCY_KEY_TTL_S in Postgres.
//
// A streamed body (an upload) is hashed as the route reads it: the key is reserved under the
// request's method, path and content headers, and its fingerprint completed with the body's hash
// once the answer is stored; a retry's body is read and hashed before it is compared.
import { createHash, timingSafeEqual, type Hash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import {
  applyDecorators,
  Inject,
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { catchError, from, mergeMap, of, throwError, type Observable } from 'rxjs';
import { DomainError, invalid } from '@sitemaps/domain';
import type { AppConfig } from '@sitemaps/config';
import { IdempotencyKeyRepository } from '@sitemaps/data';
import { CONFIG } from '@sitemaps/core';
import type { AuthedRequest } from '../auth/transport-context';
import { errorSchemaRef } from '../openapi/zod-openapi';

const IDEMPOTENT = 'idempotent';

export interface IdempotentOptions {
  /**
   * Fields of the answer that are never stored with the key (a secret shown once): a replay
   * answers without them. Stored answers live in Postgres for IDEMPOTENCY_KEY_TTL_S, in clear.
   */
  unstored?: string[];
}

/** The route honours Idempotency-Key. */
export const Idempotent = (options: IdempotentOptions = {}) =>
  applyDecorators(
    SetMetadata(IDEMPOTENT, options),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: `a retry with the same key and request gets the first answer again (Idempotent-Replayed: true); keys are per tenant`,
    }),
    ApiResponse({
      status: 409,
      description: 'the first request with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_USE)',
      schema: errorSchemaRef(),
    }),
    ApiResponse({
      status: 422,
      description: 'the Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED)',
      schema: errorSchemaRef(),
    }),
  );

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
const KEY = /^[\x21-\x7e]{1,255}$/;

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: IdempotencyKeyRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const options = this.reflector.get<IdempotentOptions | undefined>(IDEMPOTENT, context.getHandler());
    if (context.getType() !== 'http' || !options) return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<AuthedRequest>();
    const reply = http.getResponse<FastifyReply>();
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (key === undefined || request.principal?.kind !== 'tenant') return next.handle();
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw invalid('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 1 to 255 visible ASCII characters, sent once', [
        { field: 'Idempotency-Key', message: 'invalid' },
      ]);
    }
    const tenantId = request.principal.tenantId;
    const stream = isStream(request.body) ? request.body : undefined;
    const head = stream
      ? fingerprintOf(request.method, request.url, {
          contentType: request.headers['content-type'] ?? null,
          contentEncoding: request.headers['content-encoding'] ?? null,
        })
      : fingerprintOf(request.method, request.url, request.body);
    const found = await this.keys.reserve(
      tenantId,
      key,
      head,
      new Date(Date.now() - this.config.idempotencyKeyTtlSeconds * 1000),
    );
    if (!found.reserved) {
      // A stored answer was stored with the whole request's fingerprint: read this body to compare.
      if (stream && !found.answer) void reply.header('connection', 'close');
      const fingerprint = stream && found.answer ? withBody(head, await hashOf(stream)) : head;
      if (found.fingerprint.length !== fingerprint.length || !timingSafeEqual(found.fingerprint, fingerprint)) {
        throw new DomainError(
          'unprocessable',
          'IDEMPOTENCY_KEY_REUSED',
          'this Idempotency-Key was sent with another request; use a new key for a new request',
          [{ field: 'Idempotency-Key', message: 'already used with a different method, path or body' }],
        );
      }
      if (!found.answer) {
        void reply.header('retry-after', '1');
        throw new DomainError(
          'conflict',
          'IDEMPOTENCY_KEY_IN_USE',
          'the first request with this Idempotency-Key is still running; retry shortly',
        );
      }
      void reply.status(found.answer.status).header('idempotent-replayed', 'true');
      if (found.answer.location) void reply.header('location', found.answer.location);
      return of(found.answer.body);
    }
    let bodyHash: Hash | undefined;
    if (stream) {
      bodyHash = createHash('sha256');
      (request as { body: unknown }).body = hashing(stream, bodyHash);
    }
    return next.handle().pipe(
      mergeMap((result) =>
        from(
          (async () => {
            const location = reply.getHeader('location');
            // Stored as JSON: what the client got (dates as ISO strings) is what a replay sends.
            const body = result === undefined ? undefined : (JSON.parse(JSON.stringify(result)) as unknown);
            if (body && typeof body === 'object')
              for (const field of options.unstored ?? []) delete (body as Record<string, unknown>)[field];
            const answer = { status: reply.statusCode, body, location: typeof location === 'string' ? location : null };
            await this.keys.complete(
              tenantId,
              key,
              answer,
              bodyHash ? withBody(head, new Uint8Array(bodyHash.digest())) : undefined,
            );
            return result;
          })(),
        ),
      ),
      catchError((error: unknown) =>
        from(this.keys.release(tenantId, key).catch(() => undefined)).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }
}

const isStream = (body: unknown): body is Readable => typeof (body as { pipe?: unknown } | null)?.pipe === 'function';

/** The stream as the route will read it, every byte also going through the hash. */
function hashing(stream: Readable, hash: Hash): Readable {
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  return pipeline(stream, tap, () => undefined);
}

async function hashOf(stream: Readable): Promise<Uint8Array<ArrayBuffer>> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return new Uint8Array(hash.digest());
}

function withBody(head: Uint8Array, bodyHash: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(head).update(bodyHash).digest());
}

/** What makes two requests the same: method, path with query, and body (as parsed JSON). */
function fingerprintOf(method: string, url: string, body: unknown): Uint8Array<ArrayBuffer> {
  const hash = createHash('sha256').update(`${method} ${url}\n`);
  if (body !== undefined && body !== null && typeof (body as { pipe?: unknown }).pipe !== 'function')
    hash.update(JSON.stringify(body));
  return new Uint8Array(hash.digest());
}
