// The audit log of the platform operator's actions. Entries are written by the repository that
// makes the change, inside its transaction (`write`), and read here, newest first.
import { z } from 'zod';
import { Prisma, type PrismaClient } from '../generated/prisma/client';

export interface AuditActor {
  /** `platform`: the ADMIN_API_KEY. */
  actor: string;
  ip: string | null;
}

export interface AuditEntry {
  id: string;
  actor: string;
  actorIp: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  createdAt: Date;
}

/** What an entry records: the action (`tenant.update`), its target, and the target before and after. */
export interface AuditedChange {
  action: string;
  targetId: string;
  before: object | null;
  after: object | null;
}

const snapshot = z.record(z.string(), z.unknown()).nullable();

export class AuditEntryRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Newest first, keyset-paged on id; optionally one target's entries only. */
  async list(page: { before?: bigint; first: number; targetId?: string }): Promise<AuditEntry[]> {
    const rows = await this.prisma.auditEntry.findMany({
      where: {
        ...(page.targetId ? { targetId: page.targetId } : {}),
        ...(page.before !== undefined ? { id: { lt: page.before } } : {}),
      },
      orderBy: { id: 'desc' },
      take: page.first,
    });
    return rows.map((row) => ({
      id: String(row.id),
      actor: row.actor,
      actorIp: row.actorIp,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      before: snapshot.parse(row.before ?? null),
      after: snapshot.parse(row.after ?? null),
      createdAt: row.createdAt,
    }));
  }

  /** One entry, in the caller's transaction; snapshots are stored as JSON (dates as ISO strings). */
  static async write(
    tx: Prisma.TransactionClient,
    who: AuditActor,
    { action, targetId, before, after }: AuditedChange,
  ): Promise<void> {
    await tx.auditEntry.create({
      data: {
        actor: who.actor,
        actorIp: who.ip,
        action,
        targetType: action.split('.')[0] ?? 'tenant',
        targetId,
        before: toJson(before),
        after: toJson(after),
      },
    });
  }
}

function toJson(value: object | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null ? Prisma.DbNull : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue);
}
