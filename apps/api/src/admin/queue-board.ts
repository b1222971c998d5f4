// Bull Board at /admin/queues: every queue of the platform, its jobs and their failures, for the
// platform's operator only. A browser cannot send a bearer token, so the board also takes HTTP
// Basic auth with the admin key as the password (any user name): the browser asks once and
// sends it with every request of the board. Scripts may use `Authorization: Bearer <ADMIN_API_KEY>`.
// Without ADMIN_API_KEY the board is not mounted at all.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { QUEUE } from '@sitemaps/jobs';
import { jobTelemetry } from '@sitemaps/observability';

export const QUEUE_BOARD_PATH = '/admin/queues';

export class QueueBoard {
  private readonly queues: Queue[];

  constructor(
    redis: Redis,
    prefix: string,
    private readonly adminKey: string,
  ) {
    this.queues = Object.values(QUEUE).map((name) => new Queue(name, { connection: redis, prefix, ...jobTelemetry() }));
  }

  /** Registers the board's routes under QUEUE_BOARD_PATH, each behind the admin key. */
  async mount(fastify: FastifyInstance): Promise<void> {
    const serverAdapter = new FastifyAdapter();
    serverAdapter.setBasePath(QUEUE_BOARD_PATH);
    createBullBoard({
      queues: this.queues.map((queue) => new BullMQAdapter(queue)),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'Sitemaps queues' } },
    });
    const plugin = serverAdapter.registerPlugin();
    await fastify.register(
      async (scope) => {
        // Before the body is read, like every other keyed route.
        scope.addHook('onRequest', async (request, reply) => this.authorize(request, reply));
        await scope.register(plugin);
      },
      { prefix: QUEUE_BOARD_PATH },
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
  }

  private async authorize(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = presentedKey(request.headers.authorization);
    if (key === undefined || !sameKey(key, this.adminKey)) {
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
