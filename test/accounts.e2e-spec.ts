// People and their sessions, against the real API, Postgres, Redis and a local SMTP server: the
// operator invites a tenant's first owner, who invites others; roles map onto the key scopes;
// writes with a session cookie need its CSRF token; password resets go through email.
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB, jobId, QUEUE } from '@sitemaps/jobs';
import { waitUntil } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { linkToken, startMailServer, type MailServer } from './support/mail.server';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { sessionClient, sessionCookieOf, type SessionClient } from './support/session-client';
import { createTenant } from './support/tenant';

const PASSWORD = 'correct horse battery';

describe('accounts: people, sessions, roles', () => {
  let platform: Platform;
  let mail: MailServer;
  let admin: ReturnType<typeof apiClient>;
  let anonymous: ReturnType<typeof apiClient>;
  let tenantId: string;
  let tenantKey: string;
  let owner: SessionClient;
  let ownerId: string;

  /** Invites through `inviter` (or the operator), accepts from the mail, returns the new person's session. */
  async function invited(
    email: string,
    role: string,
    inviter?: SessionClient,
    password = PASSWORD,
  ): Promise<SessionClient> {
    const since = mail.received.length;
    const sent = inviter
      ? await inviter.post('/v1/invitations', { email, role })
      : await admin.post(`/v1/tenants/${tenantId}/invitations`, { email, role });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const token = linkToken(await mail.mailTo(email, since), 'accept-invitation');
    const accepted = await anonymous.post('/v1/auth/accept-invitation', { token, name: email, password });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    return sessionClient(platform.apiUrl, accepted, tenantId);
  }

  beforeAll(async () => {
    mail = await startMailServer();
    // The worker serves the mail queue only: invitations and resets are mailed by it.
    platform = await startPlatform({ SMTP_URL: mail.url, SIGN_IN_FAILURE_POINTS: '3', WORKER_QUEUES: 'mail' });
    admin = apiClient(platform.apiUrl, ADMIN_KEY);
    anonymous = apiClient(platform.apiUrl);
    ({ id: tenantId, apiKey: tenantKey } = await createTenant(platform.apiUrl, 'Acme'));
    owner = await invited('owner@acme.test', 'owner');
    ownerId = (await owner.get('/v1/auth/session')).body.person.id;
  });
  afterAll(async () => {
    await platform?.close();
    await mail?.close();
  });

  it('invites by email; the accepted invitation signs in with an HttpOnly, SameSite=Strict cookie', async () => {
    const since = mail.received.length;
    await admin.post(`/v1/tenants/${tenantId}/invitations`, { email: 'Cookie@Acme.test', role: 'viewer' });
    const invitation = await mail.mailTo('cookie@acme.test', since);
    expect(invitation.subject).toContain('Acme');
    expect(invitation.text).toContain('as viewer');
    const token = linkToken(invitation, 'accept-invitation');
    const accepted = await anonymous.post('/v1/auth/accept-invitation', { token, name: 'Cookie', password: PASSWORD });
    expect(accepted.status).toBe(200);
    const cookie = accepted.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\//);
    expect(accepted.body).toMatchObject({
      person: { email: 'cookie@acme.test', name: 'Cookie' },
      memberships: [{ tenantId, tenantName: 'Acme', role: 'viewer' }],
      csrfToken: expect.any(String),
    });
    // Once only.
    const again = await anonymous.post('/v1/auth/accept-invitation', { token, password: PASSWORD });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INVITATION_INVALID');
  });

  it('signs in with email and password, and a person creates a site they then see', async () => {
    const signedIn = await anonymous.post('/v1/auth/sign-in', { email: ' OWNER@acme.test', password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const browser = sessionClient(platform.apiUrl, signedIn, tenantId);
    const created = await browser.post('/v1/sites', { hostname: 'owner.acme.test' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const listed = await browser.get('/v1/sites');
    expect(listed.body.items.map((site: { hostname: string }) => site.hostname)).toContain('owner.acme.test');
    // The tenant's programs see it too: one tenant, two ways in.
    const viaKey = await apiClient(platform.apiUrl, tenantKey).get('/v1/sites');
    expect(viaKey.body.items.map((site: { id: string }) => site.id)).toContain(created.body.id);

    const wrong = await anonymous.post('/v1/auth/sign-in', { email: 'owner@acme.test', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('SIGN_IN_FAILED');
    const nobody = await anonymous.post('/v1/auth/sign-in', { email: 'nobody@acme.test', password: PASSWORD });
    expect(nobody.status).toBe(401);
    expect(nobody.body.error).toEqual(wrong.body.error);
  });

  it('limits failed sign-ins per address and email, whatever the password', async () => {
    await invited('limited@acme.test', 'viewer');
    for (let i = 0; i < 3; i++) {
      const res = await anonymous.post('/v1/auth/sign-in', {
        email: 'limited@acme.test',
        password: `guess number ${i}`,
      });
      expect(res.status).toBe(401);
    }
    const right = await anonymous.post('/v1/auth/sign-in', { email: 'limited@acme.test', password: PASSWORD });
    expect(right.status).toBe(429);
    expect(right.body.error.code).toBe('RATE_LIMITED');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another email from the same address is not locked out.
    expect((await anonymous.post('/v1/auth/sign-in', { email: 'owner@acme.test', password: PASSWORD })).status).toBe(
      200,
    );
  });

  it('maps roles onto scopes: a viewer reads but cannot write, an editor writes but cannot manage keys', async () => {
    const viewer = await invited('viewer@acme.test', 'viewer', owner);
    expect((await viewer.get('/v1/sites')).status).toBe(200);
    const write = await viewer.post('/v1/sites', { hostname: 'viewer.acme.test' });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect(write.body.error.message).toContain('viewer');
    const gql = await viewer.post('/graphql', {
      query: 'mutation { createSite(input: { hostname: "viewer-gql.acme.test" }) { site { id } } }',
    });
    expect(gql.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_SCOPE');

    const editor = await invited('editor@acme.test', 'editor', owner);
    expect((await editor.post('/v1/sites', { hostname: 'editor.acme.test' })).status).toBe(201);
    expect((await editor.get('/v1/api-keys')).body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await editor.post('/v1/invitations', { email: 'x@acme.test', role: 'viewer' })).status).toBe(403);
  });

  it('lets people create and revoke API keys for programs, shown once', async () => {
    const created = await owner.post('/v1/api-keys', { name: 'deploy bot', scopes: ['write'] });
    expect(created.status).toBe(201);
    const program = apiClient(platform.apiUrl, created.body.apiKey);
    expect((await program.get('/v1/sites')).status).toBe(200);
    const listed = (await owner.get('/v1/api-keys')).body.items as Record<string, unknown>[];
    expect(listed.find((key) => key.id === created.body.id)).not.toHaveProperty('apiKey');
    expect((await owner.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(204);
    expect((await program.get('/v1/sites')).status).toBe(401);
  });

  it('refuses a write with the cookie but without the session’s CSRF token, as another origin would send it', async () => {
    const sites = async () => (await owner.get('/v1/sites')).body.items.length as number;
    const before = await sites();
    const forged = await apiClient(platform.apiUrl).call(
      'POST',
      '/v1/sites',
      { hostname: 'forged.acme.test' },
      { headers: { cookie: owner.cookie, 'x-tenant-id': tenantId, origin: 'https://evil.example' } },
    );
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('CSRF_TOKEN_INVALID');
    const wrongToken = await owner.call(
      'POST',
      '/v1/sites',
      { hostname: 'forged.acme.test' },
      {
        'x-csrf-token': 'x'.repeat(43),
      },
    );
    expect(wrongToken.body.error.code).toBe('CSRF_TOKEN_INVALID');
    const forgedSignOut = await apiClient(platform.apiUrl).call('POST', '/v1/auth/sign-out-everywhere', undefined, {
      headers: { cookie: owner.cookie },
    });
    expect(forgedSignOut.status).toBe(403);
    expect(await sites()).toBe(before);
    // Reads need no token: a cross-origin page cannot read the answer anyway.
    expect((await owner.call('GET', '/v1/sites', undefined, { 'x-csrf-token': '' })).status).toBe(200);
  });

  it('acts only in tenants the person belongs to, and asks which when none is named', async () => {
    const other = (await admin.post('/v1/tenants', { name: 'Other' })).body;
    const none = await owner.call('GET', '/v1/sites', undefined, { 'x-tenant-id': '' });
    expect(none.status).toBe(403);
    owner.actIn(undefined);
    try {
      const unnamed = await owner.get('/v1/sites');
      expect(unnamed.body.error.code).toBe('TENANT_REQUIRED');
      expect((await owner.get('/v1/auth/session')).status).toBe(200);
      owner.actIn(other.id);
      const foreign = await owner.get('/v1/sites');
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.code).toBe('NOT_A_MEMBER');
      owner.actIn('not-a-uuid');
      expect((await owner.get('/v1/sites')).body.error.code).toBe('NOT_A_MEMBER');
    } finally {
      owner.actIn(tenantId);
    }
  });

  it('keeps the last owner, lets owners remove members, and names the person in the audit log', async () => {
    const leaving = await invited('leaving@acme.test', 'editor', owner);
    const leavingId = (await leaving.get('/v1/auth/session')).body.person.id;
    const members = (await owner.get('/v1/members')).body.items as { personId: string; role: string }[];
    expect(members.find((m) => m.personId === ownerId)?.role).toBe('owner');
    const lastOwner = await owner.delete(`/v1/members/${ownerId}`);
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.error.code).toBe('LAST_OWNER');
    expect((await owner.delete(`/v1/members/${leavingId}`)).status).toBe(204);
    const gone = await leaving.get('/v1/sites');
    expect(gone.status).toBe(403);
    expect(gone.body.error.code).toBe('NOT_A_MEMBER');
    const audit = (await admin.get(`/v1/admin/audit-log?targetId=${tenantId}&limit=100`)).body.items as {
      actor: string;
      action: string;
    }[];
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: `person:${ownerId}`, action: 'membership.remove' }),
        expect.objectContaining({ actor: `person:${ownerId}`, action: 'invitation.create' }),
        expect.objectContaining({ actor: 'platform', action: 'invitation.create' }),
      ]),
    );
  });

  it('gives the operator role by the admin key only; an operator uses the platform routes, a tenant owner cannot', async () => {
    const person = await invited('operator@acme.test', 'viewer');
    const personId = (await person.get('/v1/auth/session')).body.person.id;
    const platformRoutes = [
      ['GET', '/v1/tenants'],
      ['GET', `/v1/tenants/${tenantId}`],
      ['GET', '/v1/admin/audit-log'],
      ['GET', '/v1/admin/operators'],
      ['POST', `/v1/tenants/${tenantId}/suspend`],
    ] as const;
    // Neither the owner (in their tenant or in none) nor the person yet: the operator's routes refuse.
    for (const client of [owner, person])
      for (const tenant of [tenantId, undefined]) {
        client.actIn(tenant);
        for (const [method, path] of platformRoutes) {
          const res = await client.call(method, path, method === 'POST' ? {} : undefined);
          expect(res.status, `${method} ${path}`).toBe(403);
        }
      }
    owner.actIn(tenantId);
    // Nobody but the key grants the role: not an owner, not an operator.
    person.actIn(undefined);
    const selfGrant = await person.call('PUT', '/v1/admin/operators', {
      email: 'operator@acme.test',
      platformRole: 'operator',
    });
    expect(selfGrant.status).toBe(403);
    expect(
      (await admin.call('PUT', '/v1/admin/operators', { email: 'nobody@acme.test', platformRole: 'operator' })).status,
    ).toBe(404);
    const granted = await admin.call('PUT', '/v1/admin/operators', {
      email: ' Operator@Acme.test',
      platformRole: 'operator',
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body).toMatchObject({ id: personId, platformRole: 'operator' });
    expect((await person.get('/v1/auth/session')).body.person.platformRole).toBe('operator');

    // The same session, acting in no tenant, now reads tenants and suspends, named in the audit log.
    const tenants = await person.get('/v1/tenants?limit=100');
    expect(tenants.status).toBe(200);
    expect(tenants.body.items.map((t: { id: string }) => t.id)).toContain(tenantId);
    const other = (await admin.post('/v1/tenants', { name: 'Suspended by a person' })).body;
    const noCsrf = await person.call('POST', `/v1/tenants/${other.id}/suspend`, {}, { 'x-csrf-token': 'forged' });
    expect(noCsrf.body.error.code).toBe('CSRF_TOKEN_INVALID');
    const suspended = await person.post(`/v1/tenants/${other.id}/suspend`, { reason: 'abuse' });
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    expect(suspended.body.suspendedAt).not.toBeNull();
    const log = await person.get(`/v1/admin/audit-log?targetId=${other.id}`);
    expect(log.body.items[0]).toMatchObject({ action: 'tenant.suspend', actor: `person:${personId}` });
    expect((await person.get('/v1/admin/operators')).body.items).toEqual([
      { id: personId, email: 'operator@acme.test', name: 'operator@acme.test', platformRole: 'operator' },
    ]);
    const grants = await admin.get(`/v1/admin/audit-log?targetId=${personId}`);
    expect(grants.body.items[0]).toMatchObject({ action: 'person.platform-role', actor: 'platform' });
    // The queue board (the console links to it) takes the operator's session as the admin key.
    const board = (client: SessionClient) =>
      fetch(`${platform.apiUrl}/admin/queues/api/queues`, { headers: { cookie: client.cookie } });
    expect((await board(person)).status).toBe(200);
    expect((await board(owner)).status).toBe(401);
    // In their tenant they are what their membership says: a viewer.
    person.actIn(tenantId);
    expect((await person.get('/v1/tenants')).status).toBe(403);
    expect((await person.post('/v1/sites', { hostname: 'operator.acme.test' })).status).toBe(403);

    // Withdrawn: refused from the next request, same session.
    person.actIn(undefined);
    await admin.call('PUT', '/v1/admin/operators', { email: 'operator@acme.test', platformRole: null });
    expect((await person.get('/v1/tenants')).status).toBe(403);
    expect((await board(person)).status).toBe(401);
  });

  it('signs out one session, or every session of the person', async () => {
    const signIn = () => anonymous.post('/v1/auth/sign-in', { email: 'owner@acme.test', password: PASSWORD });
    const [a, b, c] = [await signIn(), await signIn(), await signIn()].map((res) =>
      sessionClient(platform.apiUrl, res, tenantId),
    ) as [SessionClient, SessionClient, SessionClient];
    const out = await a.post('/v1/auth/sign-out');
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/sitemaps_session=;/);
    expect((await a.get('/v1/sites')).body.error.code).toBe('SESSION_EXPIRED');
    expect((await b.get('/v1/sites')).status).toBe(200);
    const everywhere = await b.post('/v1/auth/sign-out-everywhere');
    expect(everywhere.body.sessionsEnded).toBeGreaterThanOrEqual(2);
    for (const session of [b, c, owner]) expect((await session.get('/v1/sites')).status).toBe(401);
    owner = sessionClient(platform.apiUrl, await signIn(), tenantId);
  });

  it('changes the password and the email after the current password, ending the other sessions', async () => {
    const here = await invited('changer@acme.test', 'editor');
    const elsewhere = sessionClient(
      platform.apiUrl,
      await anonymous.post('/v1/auth/sign-in', { email: 'changer@acme.test', password: PASSWORD }),
      tenantId,
    );
    const wrong = await here.post('/v1/auth/password', {
      currentPassword: 'a wrong password',
      newPassword: 'x'.repeat(12),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'PASSWORD_WRONG', details: [{ field: 'currentPassword' }] });
    const short = await here.post('/v1/auth/password', { currentPassword: PASSWORD, newPassword: 'short' });
    expect(short.body.error).toMatchObject({ code: 'PASSWORD_TOO_WEAK', details: [{ field: 'newPassword' }] });
    // Without the session's CSRF token, as another origin would send it: refused.
    const forged = await here.call(
      'POST',
      '/v1/auth/password',
      { currentPassword: PASSWORD, newPassword: 'a brand new password' },
      { 'x-csrf-token': 'forged' },
    );
    expect(forged.body.error.code).toBe('CSRF_TOKEN_INVALID');

    const changed = await here.post('/v1/auth/password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toEqual({ sessionsEnded: 1 });
    expect((await here.get('/v1/sites')).status).toBe(200);
    expect((await elsewhere.get('/v1/sites')).body.error.code).toBe('SESSION_EXPIRED');

    const taken = await here.post('/v1/auth/email', {
      currentPassword: 'a brand new password',
      email: 'owner@acme.test',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('EMAIL_TAKEN');
    const unchecked = await here.post('/v1/auth/email', { currentPassword: PASSWORD, email: 'moved@acme.test' });
    expect(unchecked.body.error.code).toBe('PASSWORD_WRONG');
    const moved = await here.post('/v1/auth/email', {
      currentPassword: 'a brand new password',
      email: ' Moved@Acme.test',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.person.email).toBe('moved@acme.test');
    // (Each wrong password counts as a failed sign-in of that email: this test stays under the limit of 3.)
    expect((await anonymous.post('/v1/auth/sign-in', { email: 'moved@acme.test', password: PASSWORD })).status).toBe(
      401,
    );
    expect(
      (await anonymous.post('/v1/auth/sign-in', { email: 'moved@acme.test', password: 'a brand new password' })).status,
    ).toBe(200);
    expect(
      (await anonymous.post('/v1/auth/sign-in', { email: 'changer@acme.test', password: 'a brand new password' }))
        .status,
    ).toBe(401);
  });

  it('resets a password through the emailed link, once, ending every session', async () => {
    const person = await invited('forgetful@acme.test', 'viewer');
    const since = mail.received.length;
    expect((await anonymous.post('/v1/auth/password-reset', { email: 'Forgetful@acme.test' })).status).toBe(204);
    // Unknown emails get the same answer and no mail.
    expect((await anonymous.post('/v1/auth/password-reset', { email: 'unknown@acme.test' })).status).toBe(204);
    const token = linkToken(await mail.mailTo('forgetful@acme.test', since), 'reset-password');
    const weak = await anonymous.post('/v1/auth/password-reset/confirm', { token, password: 'short' });
    expect(weak.body.error.code).toBe('PASSWORD_TOO_WEAK');
    const reset = await anonymous.post('/v1/auth/password-reset/confirm', { token, password: 'a brand new password' });
    expect(reset.status).toBe(204);
    expect((await person.get('/v1/sites')).status).toBe(401);
    const old = await anonymous.post('/v1/auth/sign-in', { email: 'forgetful@acme.test', password: PASSWORD });
    expect(old.status).toBe(401);
    const fresh = await anonymous.post('/v1/auth/sign-in', {
      email: 'forgetful@acme.test',
      password: 'a brand new password',
    });
    expect(fresh.status).toBe(200);
    sessionCookieOf(fresh);
    const reused = await anonymous.post('/v1/auth/password-reset/confirm', { token, password: 'yet another password' });
    expect(reused.body.error.code).toBe('RESET_TOKEN_INVALID');
    expect(mail.received.filter((m) => m.to === 'unknown@acme.test')).toEqual([]);
  });

  it('keeps API keys working as before, and a key has no account', async () => {
    const key = apiClient(platform.apiUrl, tenantKey);
    expect((await key.get('/v1/sites')).status).toBe(200);
    const session = await key.get('/v1/auth/session');
    expect(session.status).toBe(403);
    // A key is a program, not a person: it may invite, but no owner.
    expect((await key.post('/v1/invitations', { email: 'bot@acme.test', role: 'owner' })).body.error.code).toBe(
      'INSUFFICIENT_ROLE',
    );
  });
});

describe('accounts: mail through the queue', () => {
  let mail: MailServer;
  let platform: Platform;
  let refusing: Platform;
  let platformWithoutMail: Platform;
  let redis: Redis;
  let queue: Queue;
  let queueEvents: QueueEvents;
  beforeAll(async () => {
    mail = await startMailServer();
    platform = await startPlatform({
      SMTP_URL: mail.url,
      WORKER_QUEUES: 'mail',
      MAIL_ATTEMPTS: '4',
      MAIL_BACKOFF_MS: '20',
    });
    // Nothing listens on port 1 of loopback: every SMTP connection is refused at once.
    refusing = await startPlatform({
      SMTP_URL: 'smtp://127.0.0.1:1',
      WORKER_QUEUES: 'mail',
      MAIL_ATTEMPTS: '2',
      MAIL_BACKOFF_MS: '10',
    });
    platformWithoutMail = await startPlatform({}, { worker: false });
    redis = new Redis(platform.config.redisUrl, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE.mail, { connection: redis, prefix: platform.config.queuePrefix });
    queueEvents = new QueueEvents(QUEUE.mail, { connection: redis.duplicate(), prefix: platform.config.queuePrefix });
    await queueEvents.waitUntilReady();
  });
  afterAll(async () => {
    await queueEvents?.close();
    await queue?.close();
    redis?.disconnect();
    await platformWithoutMail?.close();
    await refusing?.close();
    await platform?.close();
    await mail?.close();
  });

  /** Every job of the mail queue, whatever its state. */
  async function mailJobs() {
    return queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
  }

  it('answers once the invitation is queued; retries a refused mail with backoff; the job holds no token', async () => {
    const admin = apiClient(platform.apiUrl, ADMIN_KEY);
    const tenant = await createTenant(platform.apiUrl, 'Queued');
    const tenantApi = tenant.api;
    mail.refuseNext(2);
    const since = mail.received.length;
    const sent = await admin.post(`/v1/tenants/${tenant.id}/invitations`, { email: 'later@acme.test', role: 'owner' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.mail).toEqual({ status: 'queued', error: null });
    const job = await queue.getJob(jobId.mailInvitation(sent.body.id));
    expect(job?.name).toBe(JOB.mailInvitation);
    expect(job?.data).toEqual({ v: 1, kind: 'invitation', invitationId: sent.body.id });

    // Refused twice (451), sent on the third attempt: the link in the mail is the one that works.
    const token = linkToken(await mail.mailTo('later@acme.test', since), 'accept-invitation');
    expect(mail.refused()).toBe(2);
    const shown = await waitUntil('the invitation shows its mail sent', async () => {
      const item = (await tenantApi.get('/v1/invitations')).body.items.find(
        (i: { id: string }) => i.id === sent.body.id,
      );
      return item?.mail.status === 'sent' ? item : undefined;
    });
    expect(shown.mail).toEqual({ status: 'sent', error: null });
    expect(JSON.stringify(await mailJobs().then((jobs) => jobs.map((j) => j.data)))).not.toContain(token);
    const accepted = await apiClient(platform.apiUrl).post('/v1/auth/accept-invitation', {
      token,
      name: 'Later',
      password: PASSWORD,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    // A doubled job (another id, the same row) finds the invitation accepted: nothing is mailed again.
    const doubled = await queue.add(
      JOB.mailInvitation,
      { v: 1, kind: 'invitation', invitationId: sent.body.id },
      { jobId: `mail-invitation-again-${sent.body.id}` },
    );
    expect(await doubled.waitUntilFinished(queueEvents)).toEqual({
      skipped: 'accepted, used, expired, withdrawn or already mailed',
    });
    expect(mail.received.slice(since).filter((m) => m.to === 'later@acme.test')).toHaveLength(1);
  });

  it('mails a password reset from the worker; the job names the reset, not its token; a used reset is not mailed again', async () => {
    const admin = apiClient(platform.apiUrl, ADMIN_KEY);
    const tenant = await createTenant(platform.apiUrl, 'Reset');
    let since = mail.received.length;
    await admin.post(`/v1/tenants/${tenant.id}/invitations`, { email: 'reset@acme.test', role: 'owner' });
    const invitation = linkToken(await mail.mailTo('reset@acme.test', since), 'accept-invitation');
    await apiClient(platform.apiUrl).post('/v1/auth/accept-invitation', { token: invitation, password: PASSWORD });

    since = mail.received.length;
    expect(
      (await apiClient(platform.apiUrl).post('/v1/auth/password-reset', { email: 'reset@acme.test' })).status,
    ).toBe(204);
    const token = linkToken(await mail.mailTo('reset@acme.test', since), 'reset-password');
    const resetJobs = (await mailJobs()).filter((j) => j.name === JOB.mailPasswordReset);
    expect(resetJobs).toHaveLength(1);
    const resetJob = resetJobs[0];
    expect(Object.keys(resetJob?.data ?? {}).sort()).toEqual(['kind', 'resetId', 'v']);
    expect(resetJob?.id).toBe(jobId.mailPasswordReset(resetJob?.data.resetId));
    expect(JSON.stringify(resetJob?.data)).not.toContain(token);
    const confirmed = await apiClient(platform.apiUrl).post('/v1/auth/password-reset/confirm', {
      token,
      password: 'another good password',
    });
    expect(confirmed.status).toBe(204);
    const doubled = await queue.add(JOB.mailPasswordReset, resetJob?.data, { jobId: 'mail-reset-again' });
    expect(await doubled.waitUntilFinished(queueEvents)).toMatchObject({ skipped: expect.any(String) });
    expect(mail.received.slice(since)).toHaveLength(1);
  });

  it('shows a mail that failed for good on the invitation; without SMTP_URL, refuses at once and keeps nothing', async () => {
    const admin = apiClient(refusing.apiUrl, ADMIN_KEY);
    const tenant = await createTenant(refusing.apiUrl, 'Unmailed');
    const sent = await admin.post(`/v1/tenants/${tenant.id}/invitations`, { email: 'lost@acme.test', role: 'owner' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const failed = await waitUntil('the invitation shows its mail failed', async () => {
      const items = (await apiClient(refusing.apiUrl, tenant.apiKey).get('/v1/invitations')).body.items;
      return items[0]?.mail.status === 'failed' ? items[0] : undefined;
    });
    expect(failed.mail.error).toMatch(/ECONNREFUSED/);

    const other = apiClient(platformWithoutMail.apiUrl, ADMIN_KEY);
    const otherTenant = (await other.post('/v1/tenants', { name: 'Unmailed' })).body;
    const unconfigured = await other.post(`/v1/tenants/${otherTenant.id}/invitations`, {
      email: 'lost@acme.test',
      role: 'owner',
    });
    expect(unconfigured.status).toBe(503);
    expect(unconfigured.body.error.code).toBe('MAIL_NOT_CONFIGURED');
    expect((await apiClient(platformWithoutMail.apiUrl, otherTenant.apiKey).get('/v1/invitations')).body.items).toEqual(
      [],
    );
    const reset = await apiClient(platformWithoutMail.apiUrl).post('/v1/auth/password-reset', { email: 'a@acme.test' });
    expect(reset.status).toBe(503);
    expect(reset.body.error.code).toBe('MAIL_NOT_CONFIGURED');
  });
});
