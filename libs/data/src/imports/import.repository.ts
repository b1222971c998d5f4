// Reads of imports as the API shows them (an import, its rejections and warnings), and the one
// status change the API makes itself. An import's run (its connection, lock, batches, sweep) is
// import-run.repository.ts's.
import type { Import, ImportRejection, ImportWarning, PrismaClient } from '../generated/prisma/client';

export type { Import, ImportRejection, ImportWarning } from '../generated/prisma/client';

export class ImportRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The site's import with this id (a uuid), or null. */
  findForSite(siteId: string, importId: string): Promise<Import | null> {
    return this.prisma.import.findFirst({ where: { id: importId, siteId } });
  }

  /** The site's imports newest first, before the (createdAt, id) key `before`, at most `limit`. */
  listForSite(siteId: string, page: { before: readonly [Date, string] | undefined; limit: number }): Promise<Import[]> {
    const { before } = page;
    return this.prisma.import.findMany({
      where: {
        siteId,
        ...(before ? { OR: [{ createdAt: { lt: before[0] } }, { createdAt: before[0], id: { lt: before[1] } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.limit,
    });
  }

  /** The import's rejected lines in line order, after `afterId`, at most `limit`. */
  rejections(importId: string, page: { afterId: string | undefined; limit: number }): Promise<ImportRejection[]> {
    return this.prisma.importRejection.findMany({
      where: { importId, ...(page.afterId ? { id: { gt: BigInt(page.afterId) } } : {}) },
      orderBy: { id: 'asc' },
      take: page.limit,
    });
  }

  /** The repairs made to stored lines, in line order, after `afterId`, at most `limit`. */
  warnings(importId: string, page: { afterId: string | undefined; limit: number }): Promise<ImportWarning[]> {
    return this.prisma.importWarning.findMany({
      where: { importId, ...(page.afterId ? { id: { gt: BigInt(page.afterId) } } : {}) },
      orderBy: { id: 'asc' },
      take: page.limit,
    });
  }

  async markFailed(importId: string, error: string): Promise<void> {
    await this.prisma.import.update({
      where: { id: importId },
      data: { status: 'failed', error, finishedAt: new Date() },
    });
  }
}
