// The api keys aggregate: a tenant's keys, stored as the sha256 of the key only.
import type { ApiKey, PrismaClient } from '../generated/prisma/client';

export type { ApiKey } from '../generated/prisma/client';

export interface NewApiKey {
  tenantId: string;
  name: string;
  scopes: string[];
  /** The first characters of the key, shown in listings. */
  prefix: string;
  hash: Uint8Array<ArrayBuffer>;
}

export class ApiKeyRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The key with this hash and whether its tenant is suspended (read on every request). */
  async findByHash(hash: Uint8Array<ArrayBuffer>): Promise<(ApiKey & { tenantSuspended: boolean }) | null> {
    const found = await this.prisma.apiKey.findUnique({
      where: { hash },
      include: { tenant: { select: { suspendedAt: true } } },
    });
    if (!found) return null;
    const { tenant, ...key } = found;
    return { ...key, tenantSuspended: tenant.suspendedAt !== null };
  }

  create(key: NewApiKey): Promise<ApiKey> {
    return this.prisma.apiKey.create({ data: key });
  }

  /** The tenant's keys oldest first, after the (createdAt, id) key `after`, at most `limit`. */
  listForTenant(
    tenantId: string,
    page: { after: readonly [Date, string] | undefined; limit: number },
  ): Promise<ApiKey[]> {
    const { after } = page;
    return this.prisma.apiKey.findMany({
      where: {
        tenantId,
        ...(after ? { OR: [{ createdAt: { gt: after[0] } }, { createdAt: after[0], id: { gt: after[1] } }] } : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: page.limit,
    });
  }

  /** The tenant's key with this id (a uuid), revoked or not, or null. */
  findForTenant(tenantId: string, keyId: string): Promise<ApiKey | null> {
    return this.prisma.apiKey.findFirst({ where: { id: keyId, tenantId } });
  }

  /** Revokes the tenant's key; false if the tenant has no key with this id (revoked or not). */
  async revoke(tenantId: string, keyId: string): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({
      where: { id: keyId, tenantId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return (
      count > 0 ||
      (await this.prisma.apiKey.findFirst({ where: { id: keyId, tenantId }, select: { id: true } })) !== null
    );
  }
}
