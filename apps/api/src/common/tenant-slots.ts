// Work that holds something scarce for as long as a client takes (an upload's connection of the
// import pool, a validation's turn at the schema pass). Without a per-tenant share, one tenant's
// requests fill it and every other tenant waits behind them; with it, a tenant's extra requests
// are refused at once. A process-wide cap bounds how many wait at all.
import { DomainError } from '@sitemaps/domain';

export interface SlotRules {
  /** Requests one tenant may have running at once. */
  perTenant: number;
  /** Requests all tenants together may have running or waiting; default: no cap. */
  total?: number;
  /** The 429's code, what is counted ("uploads"), and the settings that say how many. */
  code: string;
  what: string;
  perTenantSetting: string;
  totalSetting?: string;
}

export class TenantSlots {
  private readonly open = new Map<string, number>();
  private running = 0;

  constructor(private readonly rules: SlotRules) {}

  /** Runs `work` in one of the tenant's slots, or refuses with 429 when all are taken. */
  async run<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    const { perTenant, total = Infinity, code, what } = this.rules;
    const held = this.open.get(tenantId) ?? 0;
    if (held >= perTenant) {
      throw new DomainError(
        'rate_limited',
        code,
        `this tenant already has ${held} ${what} running (${this.rules.perTenantSetting}); retry when one finishes`,
      );
    }
    if (this.running >= total) {
      throw new DomainError(
        'rate_limited',
        code,
        `this server already has ${this.running} ${what} running or waiting (${this.rules.totalSetting}); retry shortly`,
      );
    }
    this.open.set(tenantId, held + 1);
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      const left = (this.open.get(tenantId) ?? 1) - 1;
      if (left === 0) this.open.delete(tenantId);
      else this.open.set(tenantId, left);
    }
  }
}
