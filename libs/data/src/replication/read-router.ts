// Reads from a streaming replica (DATABASE_READ_URL) without losing read-your-writes, by WAL
// position rather than by time. After a tenant's write commits, the primary's position is kept
// for the tenant (TenantWritePositions, shared by every API process); a read of that tenant goes
// to the replica only once the replica has replayed that far, else to the primary. Writes always
// use the primary's repositories; a read says which repositories it uses by asking for them here.
import type { Pool } from 'pg';
import type { Repositories } from '../repositories';
import { primaryWalPosition, replayedWalPosition } from './wal-position';

/** Where each tenant's last write ended on the primary, shared by every process that reads for it. */
export interface TenantWritePositions {
  /** Null when the tenant has written nothing recently. */
  get(tenantId: string): Promise<bigint | null>;
  /** Raises the tenant's position to `lsn`; a lower one (a concurrent, earlier write) leaves it. */
  raise(tenantId: string, lsn: bigint): Promise<void>;
}

/** One Postgres server as the repositories reach it. */
export interface RepositorySource {
  repositories: Repositories;
  pool: Pool;
}

export interface ReadReplica extends RepositorySource {
  positions: TenantWritePositions;
  /** How long one reading of the replica's replay position is used: a briefly stale one only sends reads to the primary. */
  replayCacheMs?: number;
  /** The replica or the positions store failed: reads use the primary meanwhile. */
  onError?: (error: unknown) => void;
}

export class ReadRouter {
  private replayed: { at: number; position: Promise<bigint | null> } | undefined;

  constructor(
    private readonly primary: RepositorySource,
    private readonly replica?: ReadReplica,
  ) {}

  /** The primary's repositories: for every write, and for a read that must see the very latest. */
  get writer(): Repositories {
    return this.primary.repositories;
  }

  get hasReplica(): boolean {
    return this.replica !== undefined;
  }

  /**
   * The repositories a tenant's read uses: the replica's once it has replayed the tenant's last
   * write, the primary's otherwise, and always without a replica. When in doubt (the replica or
   * Redis cannot answer), the primary.
   */
  async readerFor(tenantId: string): Promise<Repositories> {
    const { replica } = this;
    if (!replica) return this.primary.repositories;
    const [wrote, replayed] = await Promise.all([
      replica.positions.get(tenantId).catch((error: unknown) => this.failed(error)),
      this.replayedPosition(replica),
    ]);
    if (wrote === undefined || replayed === null) return this.primary.repositories;
    return wrote === null || replayed >= wrote ? replica.repositories : this.primary.repositories;
  }

  /** Call once a tenant's write has committed (or may have): its next reads see it. Nothing without a replica. */
  async recordWrite(tenantId: string): Promise<void> {
    if (!this.replica) return;
    await this.replica.positions.raise(tenantId, await primaryWalPosition(this.primary.pool));
  }

  /** The replica's replay position, read at most once per replayCacheMs however many requests ask. */
  private replayedPosition(replica: ReadReplica): Promise<bigint | null> {
    const now = Date.now();
    if (!this.replayed || now - this.replayed.at >= (replica.replayCacheMs ?? 100)) {
      this.replayed = {
        at: now,
        position: replayedWalPosition(replica.pool).catch((error: unknown) => this.failed(error) ?? null),
      };
    }
    return this.replayed.position;
  }

  private failed(error: unknown): undefined {
    this.replica?.onError?.(error);
    return undefined;
  }
}
