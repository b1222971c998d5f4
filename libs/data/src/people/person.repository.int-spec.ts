// The people aggregate against the real Postgres: the races its locks settle (two acceptances of
// one invitation, two owners removing each other) and tokens that work once, until they expire.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertTenant, useTestPool, waitUntil } from '@sitemaps/testing';
import { createPrismaClient } from '../prisma';
import { PersonRepository } from './person.repository';

const hashOf = (token: string) => new Uint8Array(createHash('sha256').update(token).digest());
const who = { actor: 'platform', ip: null };
const inAWeek = () => new Date(Date.now() + 7 * 86_400_000);

describe('PersonRepository', () => {
  const test = useTestPool();

  async function withRepository<T>(run: (people: PersonRepository) => Promise<T>): Promise<T> {
    const prisma = createPrismaClient(test.db.url);
    try {
      return await run(new PersonRepository(prisma));
    } finally {
      await prisma.$disconnect();
    }
  }

  it('accepts an invitation once when two acceptances race', () =>
    withRepository(async (people) => {
      const tenant = await insertTenant(test.pool);
      const tokenHash = hashOf('race-token');
      await people.createInvitation(
        {
          tenantId: tenant.id,
          email: 'race@example.com',
          role: 'editor',
          tokenHash,
          invitedBy: 'platform',
          expiresAt: inAWeek(),
        },
        who,
      );
      const accept = () =>
        people.acceptInvitation(tokenHash, async () => ({ create: { name: 'Race', passwordHash: 'x' } }));
      const results = await Promise.allSettled([accept(), accept(), accept()]);
      const accepted = results.filter((r) => r.status === 'fulfilled' && r.value !== null);
      expect(accepted).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(await people.members(tenant.id)).toEqual([
        expect.objectContaining({ email: 'race@example.com', role: 'editor' }),
      ]);
    }));

  it('never leaves a tenant without an owner when two owners remove each other at once', () =>
    withRepository(async (people) => {
      const tenant = await insertTenant(test.pool);
      const a = await people.createWithMembership(
        { email: 'a@example.com', name: 'A', passwordHash: 'x' },
        { tenantId: tenant.id, role: 'owner' },
      );
      const b = await people.createWithMembership(
        { email: 'b@example.com', name: 'B', passwordHash: 'x' },
        { tenantId: tenant.id, role: 'owner' },
      );
      // Each removal waits at its check for the other to get there too: without the tenant's lock
      // both would count two owners and both remove. With it, the second waits at the lock, so the
      // first goes on alone once the wait gives up.
      let arrived = 0;
      const keepsOwner = async (_: unknown, ownersLeft: number) => {
        arrived++;
        await waitUntil('the other removal at its check', () => arrived >= 2, { timeoutMs: 500 }).catch(
          () => undefined,
        );
        if (ownersLeft < 1) throw new Error('LAST_OWNER');
      };
      const results = await Promise.allSettled([
        people.removeMember(tenant.id, a.id, keepsOwner, who),
        people.removeMember(tenant.id, b.id, keepsOwner, who),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const owners = (await people.members(tenant.id)).filter((m) => m.role === 'owner');
      expect(owners).toHaveLength(1);
    }));

  it('uses a password reset once, ends the sessions, and finds and keeps no expired session', () =>
    withRepository(async (people) => {
      const tenant = await insertTenant(test.pool);
      const person = await people.createWithMembership(
        { email: 'reset@example.com', name: 'R', passwordHash: 'old' },
        { tenantId: tenant.id, role: 'viewer' },
      );
      await people.createSession({
        personId: person.id,
        tokenHash: hashOf('s1'),
        csrfToken: 'c',
        expiresAt: inAWeek(),
      });
      await people.createSession({
        personId: person.id,
        tokenHash: hashOf('expired'),
        csrfToken: 'c',
        expiresAt: new Date(Date.now() - 1_000),
      });
      expect(await people.findSession(hashOf('s1'))).not.toBeNull();
      expect(await people.findSession(hashOf('expired'))).toBeNull();
      // The maintenance sweep deletes the expired one only.
      expect(await people.deleteExpired()).toBe(1);
      expect(await people.findSession(hashOf('s1'))).not.toBeNull();
      await people.createPasswordReset({ personId: person.id, tokenHash: hashOf('reset'), expiresAt: inAWeek() });
      const [first, second] = await Promise.all([
        people.usePasswordReset(hashOf('reset'), 'new-1'),
        people.usePasswordReset(hashOf('reset'), 'new-2'),
      ]);
      expect([first, second].filter((id) => id === person.id)).toHaveLength(1);
      expect([first, second].filter((id) => id === null)).toHaveLength(1);
      expect(await people.findSession(hashOf('s1'))).toBeNull();
      expect(['new-1', 'new-2']).toContain((await people.findById(person.id))?.passwordHash);
    }));
});
