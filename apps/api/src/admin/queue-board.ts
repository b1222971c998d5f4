// Bull Board at /admin/queues: every queue of the platform, its jobs and their failures, for the
// platform's operator only. A browser cannot send a bearer token, so the board also takes HTTP
// Basic auth with the admin key as the password (any user name): the browser asks once and
// sends it with every request of the board. Scripts may use `Authorization: Bearer <ADMIN_API_KEY>`.
// An operator signed in to the console (their session cookie, SameSite=Strict) is let in too.
// Without ADMIN_API_KEY the board is not mounted at all. Its actions (anything but GET) are taken
// from its own pages only: a browser's cached credentials do not let another site act.
//
// Bull Board (with valibot, ejs, @fastify/view and its UI's routes) and its Queue objects are
// loaded on the board's first authorised request, not at start: a process that serves only the
// API never holds them (about 2 MB of live heap, every collection of a bulk request marking it).
// They live in a Fastify instance of their own, which the mounted routes hand each request to.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Queue } from 'bullmq';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type InjectOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { createQueue, QUEUE } from '@sitemaps/jobs';

export const QUEUE_BOARD_PATH = '/admin/queues';

/** Set by the connection or by Fastify for the answer it sends; not copied from the board's. */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

export class QueueBoard {
  private queues: Queue[] = [];
  private board: Promise<FastifyInstance> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly adminKey: string,
    /** Whether the request carries the session of a person with the operator role (the console's link). */
    private readonly isOperatorSession: (request: FastifyRequest) => Promise<boolean> = async () => false,
  ) {}

  /** Registers the board's routes under QUEUE_BOARD_PATH, each behind the admin key. */
  async mount(fastify: FastifyInstance): Promise<void> {
    await fastify.register(
      async (scope) => {
        // Before the body is read, like every other keyed route.
        scope.addHook('onRequest', async (request, reply) => this.authorize(request, reply));
        scope.addHook('onRequest', async (request, reply) => refuseCrossSite(request, reply));
        const forward = async (request: FastifyRequest, reply: FastifyReply) => this.forward(request, reply);
        scope.all('/', forward);
        scope.all('/*', forward);
      },
      { prefix: QUEUE_BOARD_PATH },
    );
  }

  async close(): Promise<void> {
    const board = this.board;
    this.board = undefined;
    await board?.then(
      (instance) => instance.close(),
      () => undefined,
    );
    await Promise.all(this.queues.map((queue) => queue.close()));
  }

  /** The board answers the request as if it were mounted here itself. */
  private async forward(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    if (!this.board) {
      this.board = this.load();
      // A failed load is tried again by the next request.
      this.board.catch(() => (this.board = undefined));
    }
    const board = await this.board;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined && !OWN_HEADERS.has(name)) headers[name] = value;
    const answer = await board.inject({
      method: request.method as InjectOptions['method'],
      url: request.url,
      headers,
      ...(request.body === undefined ? {} : { payload: request.body as string | object }),
    });
    void reply.status(answer.statusCode);
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !OWN_HEADERS.has(name)) void reply.header(name, value);
    return reply.send(answer.rawPayload);
  }

  private async load(): Promise<FastifyInstance> {
    // Loaded here, not imported: see the top of the file.
    const require = createRequire(__filename);
    const { createBullBoard } = require('@bull-board/api') as typeof import('@bull-board/api');
    const { BullMQAdapter } =
      require('@bull-board/api/bullMQAdapter') as typeof import('@bull-board/api/bullMQAdapter');
    const { FastifyAdapter } = require('@bull-board/fastify') as typeof import('@bull-board/fastify');
    this.queues = Object.values(QUEUE).map((name) => createQueue(name, this.redis, this.prefix));
    const serverAdapter = new FastifyAdapter();
    serverAdapter.setBasePath(QUEUE_BOARD_PATH);
    createBullBoard({
      queues: this.queues.map((queue) => new BullMQAdapter(queue)),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'Sitemaps queues' } },
    });
    const board = Fastify();
    await board.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
    await board.ready();
    return board;
  }

  private async authorize(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = presentedKey(request.headers.authorization);
    if (key !== undefined ? !sameKey(key, this.adminKey) : !(await this.isOperatorSession(request))) {
      await reply
        .status(401)
        .header('www-authenticate', 'Basic realm="sitemaps queues", charset="UTF-8"')
        .header('content-type', 'application/json; charset=utf-8')
        .send(
          JSON.stringify({
            error: { code: 'UNAUTHENTICATED', message: 'the queue board needs the platform admin key', details: [] },
          }),
        );
    }
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A browser sends cached Basic credentials with any request to the board, a page of another
 * site's included (a `no-cors` POST needs no preflight): the board's actions (add, retry, clean,
 * pause, obliterate) are taken from the board's own pages only. Browsers say where a request
 * comes from (Sec-Fetch-Site, else Origin); scripts send neither and are judged by their key.
 */
async function refuseCrossSite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (reply.sent || SAFE_METHODS.has(request.method)) return;
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const sameOrigin =
    site !== undefined ? site === 'same-origin' : origin === undefined || hostOf(origin) === request.host;
  if (sameOrigin) return;
  await reply
    .status(403)
    .header('content-type', 'application/json; charset=utf-8')
    .send(
      JSON.stringify({
        error: {
          code: 'CROSS_SITE_REQUEST',
          message: "the queue board's actions are taken from its own pages only",
          details: [],
        },
      }),
    );
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** The key of `Bearer <key>`, or the password of `Basic base64(user:key)`. */
function presentedKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.trim().split(/\s+/, 2);
  if (!value) return undefined;
  if (scheme?.toLowerCase() === 'bearer') return value;
  if (scheme?.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}

/** Compared as digests, in constant time: the time taken says nothing about the key. */
function sameKey(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
