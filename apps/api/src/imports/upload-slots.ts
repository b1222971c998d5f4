// Uploads hold a connection of the import pool for as long as their client takes to send them.
// Without a per-tenant share, one tenant's trickling uploads fill that pool and every other
// tenant's upload waits behind them; with it, a tenant's extra uploads are refused at once.
import { DomainError } from '@sitemaps/domain';

export class UploadSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly perTenant: number) {}

  /** Runs `upload` in one of the tenant's slots, or refuses with 429 when all are taken. */
  async run<T>(tenantId: string, upload: () => Promise<T>): Promise<T> {
    const held = this.open.get(tenantId) ?? 0;
    if (held >= this.perTenant) {
      throw new DomainError(
        'rate_limited',
        'UPLOADS_BUSY',
        `this tenant already has ${held} uploads running (IMPORT_UPLOADS_PER_TENANT); retry when one finishes`,
      );
    }
    this.open.set(tenantId, held + 1);
    try {
      return await upload();
    } finally {
      const left = (this.open.get(tenantId) ?? 1) - 1;
      if (left === 0) this.open.delete(tenantId);
      else this.open.set(tenantId, left);
    }
  }
}
