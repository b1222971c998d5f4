// Idempotency keys of create requests, per tenant: the first request with a key reserves it; its
// answer is kept for a retry with the same key to replay. A key reserved before `expiredBefore`
// (the caller's TTL) is free again.
import { Prisma, type PrismaClient } from '../generated/prisma/client';

export interface StoredAnswer {
  status: number;
  body: unknown;
  location: string | null;
}

/** What a reservation found: the key was free (now ours), or taken by a request with this fingerprint and, when done, its answer. */
export type Reservation =
  { reserved: true } | { reserved: false; fingerprint: Uint8Array; answer: StoredAnswer | null };

export class IdempotencyKeyRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async reserve(
    tenantId: string,
    key: string,
    fingerprint: Uint8Array<ArrayBuffer>,
    expiredBefore: Date,
  ): Promise<Reservation> {
    const expired = expiredBefore;
    // An expired reservation is taken over in the same statement; a live one is left alone.
    const taken = await this.prisma.$executeRaw`
      INSERT INTO idempotency_keys (tenant_id, key, fingerprint) VALUES (${tenantId}::uuid, ${key}, ${fingerprint})
      ON CONFLICT (tenant_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status = NULL, body = NULL, location = NULL, created_at = now()
       WHERE idempotency_keys.created_at < ${expired}`;
    if (taken === 1) return { reserved: true };
    const row = await this.prisma.idempotencyKey.findUnique({ where: { tenantId_key: { tenantId, key } } });
    // Released between the two statements (the first request failed): try once more.
    if (!row) return this.reserve(tenantId, key, fingerprint, expiredBefore);
    return {
      reserved: false,
      fingerprint: row.fingerprint,
      answer: row.status === null ? null : { status: row.status, body: row.body, location: row.location },
    };
  }

  /** Stores the answer; `fingerprint` replaces the reserved one when the request's body was known only once read (an upload). */
  async complete(
    tenantId: string,
    key: string,
    answer: StoredAnswer,
    fingerprint?: Uint8Array<ArrayBuffer>,
  ): Promise<void> {
    await this.prisma.idempotencyKey.updateMany({
      where: { tenantId, key },
      data: {
        ...(fingerprint ? { fingerprint } : {}),
        status: answer.status,
        body: answer.body === undefined ? Prisma.DbNull : (answer.body as Prisma.InputJsonValue),
        location: answer.location,
      },
    });
  }

  /** A request that failed gives its key back: the client may retry it as a new request. */
  async release(tenantId: string, key: string): Promise<void> {
    await this.prisma.idempotencyKey.deleteMany({ where: { tenantId, key, status: null } });
  }

  /** Drops keys reserved before `expiredBefore`; returns how many. */
  async deleteExpired(expiredBefore: Date): Promise<number> {
    const { count } = await this.prisma.idempotencyKey.deleteMany({ where: { createdAt: { lt: expiredBefore } } });
    return count;
  }
}
