// Hostname ownership transitions against the real Postgres: the lock and the partial unique
// index settle races between claims.
import { describe, expect, it } from 'vitest';
import type { VerificationTransition } from '@sitemaps/domain';
import { insertSite, useTestPool } from '@sitemaps/testing';
import { createPrismaClient } from '../prisma';
import { SiteOwnershipRepository } from './site-ownership.repository';

const checkedAt = new Date('2026-11-25T10:00:00Z');
const verified: VerificationTransition = {
  status: 'verified',
  failures: 0,
  failingSince: null,
  verifiedAt: checkedAt,
  checkedAt,
  dueAt: new Date(checkedAt.getTime() + 86_400_000),
  errorCode: null,
  error: null,
  event: 'site.verified',
};
const failed: VerificationTransition = {
  status: 'pending',
  failures: 1,
  failingSince: checkedAt,
  verifiedAt: null,
  checkedAt,
  dueAt: new Date(checkedAt.getTime() + 60_000),
  errorCode: 'PROOF_NOT_FOUND',
  error: 'no TXT record',
  event: null,
};

describe('SiteOwnershipRepository.record', () => {
  const test = useTestPool();

  it('keeps a claim taken when its failing check lands after another tenant verified the hostname', async () => {
    const prisma = createPrismaClient(test.db.url);
    try {
      const ownership = new SiteOwnershipRepository(prisma);
      const hostname = 'race.example.com';
      const squatter = await insertSite(test.pool, { hostname, verificationStatus: 'pending' });
      const owner = await insertSite(test.pool, { hostname, verificationStatus: 'pending' });
      // The squatter's check began (and found no proof) before the owner's verification landed.
      expect(await ownership.record(owner.id, hostname, verified)).toEqual({
        status: 'verified',
        failedClaims: [squatter.id],
      });
      expect(await ownership.record(squatter.id, hostname, failed)).toEqual({ status: 'taken', failedClaims: [] });
      expect((await ownership.state(squatter.id))?.status).toBe('taken');
      expect((await ownership.state(owner.id))?.status).toBe('verified');
    } finally {
      await prisma.$disconnect();
    }
  });
});
