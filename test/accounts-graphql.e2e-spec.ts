// People's operations in GraphQL, against the real API, worker, Postgres, Redis and a local SMTP
// server: the signed-in account, members and invitations (mailed by the worker), signing out
// everywhere. A session's GraphQL request carries its CSRF token, as any cookie write does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '@sitemaps/testing';
import { apiClient, type ApiResponse } from './support/api-client';
import { linkToken, startMailServer, type MailServer } from './support/mail.server';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { sessionClient, type SessionClient } from './support/session-client';
import { createTenant } from './support/tenant';

const PASSWORD = 'correct horse battery';

interface GqlBody {
  data?: any;
  errors?: { message: string; extensions: { code: string } }[];
}

describe('accounts in GraphQL', () => {
  let mail: MailServer;
  let platform: Platform;
  let admin: ReturnType<typeof apiClient>;
  let tenantId: string;
  let tenantKey: string;
  let owner: SessionClient;

  /** A GraphQL request as the console sends it: cookie, CSRF token and tenant (`headers` override them). */
  const gql = (session: SessionClient, query: string, variables = {}, headers: Record<string, string> = {}) =>
    session.call<GqlBody>('POST', '/graphql', { query, variables }, headers);
  const codes = (res: ApiResponse<GqlBody>) => res.body.errors?.map((e) => e.extensions.code);

  /** Accepts the invitation mailed to `email` after `since` mails; the new person's session. */
  async function accept(email: string, since: number, password = PASSWORD): Promise<SessionClient> {
    const token = linkToken(await mail.mailTo(email, since), 'accept-invitation');
    const accepted = await apiClient(platform.apiUrl).post('/v1/auth/accept-invitation', { token, password });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    return sessionClient(platform.apiUrl, accepted, tenantId);
  }

  beforeAll(async () => {
    mail = await startMailServer();
    platform = await startPlatform({ SMTP_URL: mail.url, WORKER_QUEUES: 'mail' });
    admin = apiClient(platform.apiUrl, ADMIN_KEY);
    ({ id: tenantId, apiKey: tenantKey } = await createTenant(platform.apiUrl, 'Graph'));
    const since = mail.received.length;
    await admin.post(`/v1/tenants/${tenantId}/invitations`, { email: 'owner@graph.test', role: 'owner' });
    owner = await accept('owner@graph.test', since);
  });
  afterAll(async () => {
    await platform?.close();
    await mail?.close();
  });

  it('answers me for a session, not for a key; without the CSRF token, refuses', async () => {
    const me = await gql(owner, '{ me { person { email platformRole } memberships { tenantId tenantName role } } }');
    expect(me.body).toEqual({
      data: {
        me: {
          person: { email: 'owner@graph.test', platformRole: null },
          memberships: [{ tenantId, tenantName: 'Graph', role: 'owner' }],
        },
      },
    });
    const noToken = await gql(owner, '{ me { person { email } } }', {}, { 'x-csrf-token': '' });
    expect(noToken.body.data ?? null).toBeNull();
    expect(codes(noToken)).toEqual(['CSRF_TOKEN_INVALID']);
    const byKey = await apiClient(platform.apiUrl, tenantKey).call('POST', '/graphql', {
      query: '{ me { person { email } } }',
    });
    expect(byKey.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['FORBIDDEN']);
  });

  it('invites through a mutation: queued, then mailed by the worker; a forged request invites nobody', async () => {
    // Another origin can make the browser send the cookie, not read the token.
    const forged = await gql(
      owner,
      'mutation { createInvitation(input: { email: "forged@graph.test", role: admin }) { invitation { id } } }',
      {},
      { 'x-csrf-token': 'guessed-token-guessed-token' },
    );
    expect(codes(forged)).toEqual(['CSRF_TOKEN_INVALID']);

    const since = mail.received.length;
    const created = await gql(
      owner,
      'mutation($email: String!) { createInvitation(input: { email: $email, role: editor }) { invitation { id email role mail { status error } } } }',
      { email: ' Editor@Graph.test' },
    );
    expect(created.body.errors).toBeUndefined();
    const invitation = created.body.data.createInvitation.invitation;
    expect(invitation).toMatchObject({
      email: 'editor@graph.test',
      role: 'editor',
      mail: { status: 'queued', error: null },
    });
    const editor = await accept('editor@graph.test', since);
    const listed = (await gql(owner, '{ invitations { id email mail { status } } }')).body.data.invitations;
    // Accepted: no longer pending.
    expect(listed).toEqual([]);
    const invitations = (await owner.get('/v1/invitations')).body.items as { email: string }[];
    expect(invitations.map((i) => i.email)).not.toContain('forged@graph.test');

    // An editor reads the members but cannot invite.
    const members = await gql(editor, '{ members { email role } }');
    expect(members.body.data.members).toEqual([
      { email: 'owner@graph.test', role: 'owner' },
      { email: 'editor@graph.test', role: 'editor' },
    ]);
    const refused = await gql(
      editor,
      'mutation { createInvitation(input: { email: "x@graph.test" }) { invitation { id } } }',
    );
    expect(codes(refused)).toEqual(['INSUFFICIENT_SCOPE']);
  });

  it('lists, revokes invitations and removes members; the removed person reaches the tenant no more', async () => {
    const since = mail.received.length;
    const pending = (
      await gql(
        owner,
        'mutation { createInvitation(input: { email: "pending@graph.test" }) { invitation { id role } } }',
      )
    ).body.data.createInvitation.invitation;
    expect(pending.role).toBe('viewer');
    await mail.mailTo('pending@graph.test', since);
    const sent = await waitUntil('the invitation shows its mail sent', async () => {
      const res = await gql(owner, '{ invitations { id mail { status error } } }');
      const item = res.body.data.invitations.find((i: { id: string }) => i.id === pending.id);
      return item?.mail.status === 'sent' ? item : undefined;
    });
    expect(sent.mail.error).toBeNull();
    const revoked = await gql(
      owner,
      'mutation($id: ID!) { revokeInvitation(input: { id: $id }) { revokedInvitationId } }',
      { id: pending.id },
    );
    expect(revoked.body.data).toEqual({ revokeInvitation: { revokedInvitationId: pending.id } });
    const again = await gql(
      owner,
      'mutation($id: ID!) { revokeInvitation(input: { id: $id }) { revokedInvitationId } }',
      {
        id: pending.id,
      },
    );
    expect(codes(again)).toEqual(['INVITATION_NOT_FOUND']);

    const viewerSince = mail.received.length;
    await gql(owner, 'mutation { createInvitation(input: { email: "leaving@graph.test" }) { invitation { id } } }');
    const viewer = await accept('leaving@graph.test', viewerSince);
    const viewerId = (await viewer.get('/v1/auth/session')).body.person.id as string;
    const removed = await gql(
      owner,
      'mutation($personId: ID!) { removeMember(input: { personId: $personId }) { removedPersonId } }',
      { personId: viewerId },
    );
    expect(removed.body.data).toEqual({ removeMember: { removedPersonId: viewerId } });
    expect(codes(await gql(viewer, '{ members { email } }'))).toEqual(['NOT_A_MEMBER']);
    const ownerId = (await owner.get('/v1/auth/session')).body.person.id as string;
    const lastOwner = await gql(
      owner,
      'mutation($personId: ID!) { removeMember(input: { personId: $personId }) { removedPersonId } }',
      { personId: ownerId },
    );
    expect(codes(lastOwner)).toEqual(['LAST_OWNER']);
  });

  it('signs out everywhere: the other sessions, or every one with its cookie cleared', async () => {
    const signIn = async () =>
      sessionClient(
        platform.apiUrl,
        await apiClient(platform.apiUrl).post('/v1/auth/sign-in', { email: 'owner@graph.test', password: PASSWORD }),
        tenantId,
      );
    const here = await signIn();
    const elsewhere = await signIn();
    const kept = await gql(here, 'mutation { signOutEverywhere(input: { keepThisSession: true }) { sessionsEnded } }');
    // The session of beforeAll, `elsewhere`: at least those two ended.
    expect(kept.body.data.signOutEverywhere.sessionsEnded).toBeGreaterThanOrEqual(2);
    expect(codes(await gql(elsewhere, '{ me { person { email } } }'))).toEqual(['SESSION_EXPIRED']);
    expect((await gql(here, '{ me { person { email } } }')).body.data.me.person.email).toBe('owner@graph.test');

    const all = await gql(here, 'mutation { signOutEverywhere { sessionsEnded } }');
    expect(all.body.data).toEqual({ signOutEverywhere: { sessionsEnded: 1 } });
    expect(all.headers.get('set-cookie')).toMatch(/^sitemaps_session=;.*Max-Age=0/);
    expect(codes(await gql(here, '{ me { person { email } } }'))).toEqual(['SESSION_EXPIRED']);
  });
});
