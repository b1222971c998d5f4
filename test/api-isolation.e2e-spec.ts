// Multi-tenancy at the API boundary, against real servers: every REST endpoint and GraphQL
// operation keeps tenants apart, enforces key scopes and revocation, for API keys and for people
// signed in with a session alike; quotas, per-key rate limits and size limits answer with clear
// codes. The tables below are checked against the OpenAPI document and the GraphQL schema, so a
// new endpoint or operation cannot skip them.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiApp } from '../apps/api/src/api.app';
import { apiClient } from './support/api-client';
import { linkToken, startMailServer, type MailServer } from './support/mail.server';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { sessionClient, type SessionClient } from './support/session-client';

/** `public`: how a person signs in (no key, no session); `person`: a signed-in person's own account. */
type Access = 'read' | 'write' | 'admin' | 'platform' | 'public' | 'person';
/**
 * What another tenant's key gets: 404 with this code, a list without the owner's objects, null as for an
 * unknown id (`node`), or nothing to isolate.
 */
type Isolation = { notFound: string } | 'list' | 'null' | 'none';

interface RestOperation {
  method: string;
  path: string;
  body?: unknown;
  access: Access;
  isolation: Isolation;
}

interface GqlOperation {
  field: string;
  /** A document using $siteId, $buildId, $keyId, $otherSiteId as needed. */
  query: string;
  access: Access;
  isolation: Isolation;
}

interface Ids {
  tenantId: string;
  siteId: string;
  buildId: string;
  keyId: string;
  otherSiteId: string;
  webhookId: string;
  deliveryId: string;
  personId: string;
  invitationId: string;
}

/** With a key, or with a session's headers (cookie, CSRF token, tenant). */
function graphqlClient(baseUrl: string, key?: string | Record<string, string>) {
  const auth = typeof key === 'string' ? { authorization: `Bearer ${key}` } : (key ?? {});
  return async (query: string, variables: Record<string, unknown> = {}, raw?: string) => {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: raw ?? JSON.stringify({ query, variables }),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as {
        data?: any;
        errors?: { message: string; extensions: { code: string; details: any[] } }[];
      },
    };
  };
}

const SITE = 'a.example.com';
/** Never resolves: a test event to it fails in the background without reaching anything. */
const HOOK_URL = 'https://hooks.invalid/in';
const REST_OPERATIONS: RestOperation[] = [
  { method: 'POST', path: '/v1/tenants', body: { name: 'X' }, access: 'platform', isolation: 'none' },
  { method: 'GET', path: '/v1/tenants', access: 'platform', isolation: 'none' },
  { method: 'GET', path: '/v1/tenants/{tenantId}', access: 'platform', isolation: 'none' },
  { method: 'PATCH', path: '/v1/tenants/{tenantId}', body: { maxSites: 1 }, access: 'platform', isolation: 'none' },
  { method: 'POST', path: '/v1/tenants/{tenantId}/suspend', body: {}, access: 'platform', isolation: 'none' },
  { method: 'POST', path: '/v1/tenants/{tenantId}/resume', access: 'platform', isolation: 'none' },
  { method: 'DELETE', path: '/v1/tenants/{tenantId}', access: 'platform', isolation: 'none' },
  { method: 'GET', path: '/v1/admin/sites', access: 'platform', isolation: 'none' },
  { method: 'GET', path: '/v1/admin/audit-log', access: 'platform', isolation: 'none' },
  { method: 'GET', path: '/v1/admin/operators', access: 'platform', isolation: 'none' },
  {
    method: 'PUT',
    path: '/v1/admin/operators',
    body: { email: 'owner@owner.test', platformRole: 'operator' },
    access: 'platform',
    isolation: 'none',
  },
  {
    method: 'POST',
    path: '/v1/tenants/{tenantId}/invitations',
    body: { email: 'first@owner.test', role: 'owner' },
    access: 'platform',
    isolation: 'none',
  },
  {
    method: 'POST',
    path: '/v1/auth/sign-in',
    body: { email: 'nobody@owner.test', password: 'x' },
    access: 'public',
    isolation: 'none',
  },
  {
    method: 'POST',
    path: '/v1/auth/password-reset',
    body: { email: 'x@owner.test' },
    access: 'public',
    isolation: 'none',
  },
  {
    method: 'POST',
    path: '/v1/auth/password-reset/confirm',
    body: { token: 'x'.repeat(43), password: 'x'.repeat(12) },
    access: 'public',
    isolation: 'none',
  },
  {
    method: 'POST',
    path: '/v1/auth/accept-invitation',
    body: { token: 'x'.repeat(43), password: 'x'.repeat(12) },
    access: 'public',
    isolation: 'none',
  },
  { method: 'GET', path: '/v1/auth/session', access: 'person', isolation: 'none' },
  { method: 'POST', path: '/v1/auth/sign-out', access: 'person', isolation: 'none' },
  { method: 'POST', path: '/v1/auth/sign-out-everywhere', access: 'person', isolation: 'none' },
  {
    method: 'POST',
    path: '/v1/auth/password',
    body: { currentPassword: 'not the password', newPassword: 'x'.repeat(12) },
    access: 'person',
    isolation: 'none',
  },
  {
    method: 'POST',
    path: '/v1/auth/email',
    body: { currentPassword: 'not the password', email: 'moved@owner.test' },
    access: 'person',
    isolation: 'none',
  },
  { method: 'GET', path: '/v1/members', access: 'read', isolation: 'list' },
  { method: 'DELETE', path: '/v1/members/{personId}', access: 'admin', isolation: { notFound: 'MEMBER_NOT_FOUND' } },
  {
    method: 'POST',
    path: '/v1/invitations',
    body: { email: 'new@owner.test', role: 'viewer' },
    access: 'admin',
    isolation: 'none',
  },
  { method: 'GET', path: '/v1/invitations', access: 'admin', isolation: 'list' },
  {
    method: 'DELETE',
    path: '/v1/invitations/{invitationId}',
    access: 'admin',
    isolation: { notFound: 'INVITATION_NOT_FOUND' },
  },
  { method: 'GET', path: '/v1/admin/crawls', access: 'platform', isolation: 'none' },
  { method: 'GET', path: '/v1/api-keys', access: 'admin', isolation: 'list' },
  { method: 'POST', path: '/v1/api-keys', body: { name: 'k', scopes: ['read'] }, access: 'admin', isolation: 'none' },
  { method: 'DELETE', path: '/v1/api-keys/{keyId}', access: 'admin', isolation: { notFound: 'API_KEY_NOT_FOUND' } },
  { method: 'GET', path: '/v1/sites', access: 'read', isolation: 'list' },
  { method: 'POST', path: '/v1/sites', body: { hostname: 'new.example.org' }, access: 'write', isolation: 'none' },
  { method: 'GET', path: '/v1/sites/{siteId}', access: 'read', isolation: { notFound: 'SITE_NOT_FOUND' } },
  {
    method: 'PATCH',
    path: '/v1/sites/{siteId}',
    body: { scheme: 'http' },
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  { method: 'DELETE', path: '/v1/sites/{siteId}', access: 'write', isolation: { notFound: 'SITE_NOT_FOUND' } },
  { method: 'GET', path: '/v1/sites/{siteId}/schedule', access: 'read', isolation: { notFound: 'SITE_NOT_FOUND' } },
  { method: 'POST', path: '/v1/sites/{siteId}/verify', access: 'write', isolation: { notFound: 'SITE_NOT_FOUND' } },
  {
    method: 'PUT',
    path: '/v1/sites/{siteId}/urls',
    body: [{ loc: `https://${SITE}/intruder` }],
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  { method: 'GET', path: '/v1/sites/{siteId}/urls', access: 'read', isolation: { notFound: 'SITE_NOT_FOUND' } },
  {
    method: 'DELETE',
    path: '/v1/sites/{siteId}/urls',
    body: { locs: [`https://${SITE}/1`] },
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  { method: 'GET', path: '/v1/sites/{siteId}/builds', access: 'read', isolation: { notFound: 'SITE_NOT_FOUND' } },
  {
    method: 'POST',
    path: '/v1/sites/{siteId}/builds',
    body: {},
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    method: 'GET',
    path: '/v1/sites/{siteId}/builds/{buildId}',
    access: 'read',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  { method: 'GET', path: '/v1/sites/{siteId}/shards', access: 'read', isolation: { notFound: 'SITE_NOT_FOUND' } },
  { method: 'GET', path: '/v1/sites/{siteId}/urls/export', access: 'read', isolation: { notFound: 'SITE_NOT_FOUND' } },
  { method: 'GET', path: '/v1/sites/{siteId}/exclusions', access: 'read', isolation: { notFound: 'SITE_NOT_FOUND' } },
  {
    method: 'PUT',
    path: '/v1/sites/{siteId}/exclusions',
    body: { rules: [{ kind: 'prefix', path: '/nothing-here/' }] },
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  { method: 'GET', path: '/v1/sites/{siteId}/conflicts', access: 'read', isolation: { notFound: 'SITE_NOT_FOUND' } },
  { method: 'GET', path: '/v1/sites/{siteId}/crawls', access: 'read', isolation: { notFound: 'SITE_NOT_FOUND' } },
  {
    method: 'POST',
    path: '/v1/validate',
    body: { url: 'ftp://a.example.com/sitemap.xml' },
    access: 'read',
    isolation: 'none',
  },
  {
    method: 'POST',
    path: '/v1/webhooks',
    body: { url: HOOK_URL, eventTypes: ['build.failed'] },
    access: 'admin',
    isolation: 'none',
  },
  { method: 'GET', path: '/v1/webhooks', access: 'read', isolation: 'list' },
  { method: 'GET', path: '/v1/webhooks/{webhookId}', access: 'read', isolation: { notFound: 'WEBHOOK_NOT_FOUND' } },
  {
    method: 'PATCH',
    path: '/v1/webhooks/{webhookId}',
    body: { eventTypes: ['build.published'] },
    access: 'admin',
    isolation: { notFound: 'WEBHOOK_NOT_FOUND' },
  },
  { method: 'DELETE', path: '/v1/webhooks/{webhookId}', access: 'admin', isolation: { notFound: 'WEBHOOK_NOT_FOUND' } },
  {
    method: 'POST',
    path: '/v1/webhooks/{webhookId}/test',
    access: 'admin',
    isolation: { notFound: 'WEBHOOK_NOT_FOUND' },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/{webhookId}/deliveries',
    access: 'read',
    isolation: { notFound: 'WEBHOOK_NOT_FOUND' },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/{webhookId}/deliveries/{deliveryId}',
    access: 'read',
    isolation: { notFound: 'WEBHOOK_NOT_FOUND' },
  },
];

const GQL_OPERATIONS: GqlOperation[] = [
  {
    field: 'createTenant',
    query: 'mutation { createTenant(input: { name: "X" }) { tenant { id } } }',
    access: 'platform',
    isolation: 'none',
  },
  { field: 'tenants', query: '{ tenants { nodes { id } } }', access: 'platform', isolation: 'none' },
  {
    field: 'tenant',
    query: 'query($tenantId: ID!) { tenant(id: $tenantId) { id } }',
    access: 'platform',
    isolation: 'none',
  },
  {
    field: 'hostnameClaims',
    query: '{ hostnameClaims(hostname: "a.example.com") { siteId } }',
    access: 'platform',
    isolation: 'none',
  },
  { field: 'auditLog', query: '{ auditLog { nodes { id } } }', access: 'platform', isolation: 'none' },
  {
    field: 'updateTenant',
    query: 'mutation($tenantId: ID!) { updateTenant(input: { id: $tenantId, maxSites: 1 }) { tenant { id } } }',
    access: 'platform',
    isolation: 'none',
  },
  {
    field: 'suspendTenant',
    query: 'mutation($tenantId: ID!) { suspendTenant(input: { id: $tenantId }) { tenant { id } } }',
    access: 'platform',
    isolation: 'none',
  },
  {
    field: 'resumeTenant',
    query: 'mutation($tenantId: ID!) { resumeTenant(input: { id: $tenantId }) { tenant { id } } }',
    access: 'platform',
    isolation: 'none',
  },
  {
    field: 'deleteTenant',
    query: 'mutation($tenantId: ID!) { deleteTenant(input: { id: $tenantId }) { deletedTenantId } }',
    access: 'platform',
    isolation: 'none',
  },
  { field: 'apiKeys', query: '{ apiKeys { nodes { id } } }', access: 'admin', isolation: 'list' },
  {
    field: 'createApiKey',
    query: 'mutation { createApiKey(input: { name: "k", scopes: [read] }) { apiKey { id } } }',
    access: 'admin',
    isolation: 'none',
  },
  {
    field: 'revokeApiKey',
    query: 'mutation($keyId: ID!) { revokeApiKey(input: { id: $keyId }) { apiKey { revokedAt } } }',
    access: 'admin',
    isolation: { notFound: 'API_KEY_NOT_FOUND' },
  },
  { field: 'sites', query: '{ sites { nodes { id hostname } } }', access: 'read', isolation: 'list' },
  {
    field: 'site',
    query: 'query($siteId: ID!) { site(id: $siteId) { id hostname } }',
    access: 'read',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'createSite',
    query: 'mutation { createSite(input: { hostname: "new.example.net" }) { site { id } } }',
    access: 'write',
    isolation: 'none',
  },
  {
    field: 'updateSite',
    query: 'mutation($siteId: ID!) { updateSite(input: { id: $siteId, scheme: http }) { site { id } } }',
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'deleteSite',
    query: 'mutation($siteId: ID!) { deleteSite(input: { id: $siteId }) { deletedSiteId } }',
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'verifySite',
    query: 'mutation($siteId: ID!) { verifySite(input: { id: $siteId }) { site { id verification { status } } } }',
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'urls',
    query: 'query($siteId: ID!) { urls(siteId: $siteId) { nodes { loc } } }',
    access: 'read',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'upsertUrls',
    query: `mutation($siteId: ID!) { upsertUrls(input: { siteId: $siteId, entries: [{ loc: "https://${SITE}/intruder" }] }) { upserted } }`,
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'deleteUrls',
    query: `mutation($siteId: ID!) { deleteUrls(input: { siteId: $siteId, locs: ["https://${SITE}/1"] }) { deleted } }`,
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'shards',
    query: 'query($siteId: ID!) { shards(siteId: $siteId) { nodes { id } } }',
    access: 'read',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'exclusions',
    query: 'query($siteId: ID!) { exclusions(siteId: $siteId) { flaggedUrls } }',
    access: 'read',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'setExclusionRules',
    query: `mutation($siteId: ID!) { setExclusionRules(input: { siteId: $siteId, rules: [{ kind: prefix, path: "/nothing-here/" }] }) { changed { urls } } }`,
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'conflictReport',
    query: 'query($siteId: ID!) { conflictReport(siteId: $siteId) { total } }',
    access: 'read',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'crawls',
    query: 'query($siteId: ID!) { crawls(siteId: $siteId) { siteId files { path } } }',
    access: 'read',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'builds',
    query: 'query($siteId: ID!) { builds(siteId: $siteId) { nodes { id } } }',
    access: 'read',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'build',
    query: 'query($siteId: ID!, $buildId: ID!) { build(siteId: $siteId, id: $buildId) { id } }',
    access: 'read',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'createBuild',
    query: 'mutation($siteId: ID!) { createBuild(input: { siteId: $siteId }) { build { id } } }',
    access: 'write',
    isolation: { notFound: 'SITE_NOT_FOUND' },
  },
  {
    field: 'node',
    // One alias per node type: each of the owner's objects, by its id.
    query: `query($siteId: ID!, $buildId: ID!, $keyId: ID!, $webhookId: ID!, $deliveryId: ID!) {
      site: node(id: $siteId) { id } build: node(id: $buildId) { id } key: node(id: $keyId) { id }
      webhook: node(id: $webhookId) { id } delivery: node(id: $deliveryId) { id } }`,
    access: 'read',
    isolation: 'null',
  },
  {
    field: 'me',
    query: '{ me { person { id email } memberships { tenantId role } } }',
    access: 'person',
    isolation: 'none',
  },
  {
    field: 'signOutEverywhere',
    query: 'mutation { signOutEverywhere(input: { keepThisSession: true }) { sessionsEnded } }',
    access: 'person',
    isolation: 'none',
  },
  { field: 'members', query: '{ members { personId email role } }', access: 'read', isolation: 'list' },
  { field: 'invitations', query: '{ invitations { id email mail { status } } }', access: 'admin', isolation: 'list' },
  {
    field: 'createInvitation',
    query: 'mutation { createInvitation(input: { email: "gql@owner.test", role: viewer }) { invitation { id } } }',
    access: 'admin',
    isolation: 'none',
  },
  {
    field: 'revokeInvitation',
    query: 'mutation($invitationId: ID!) { revokeInvitation(input: { id: $invitationId }) { revokedInvitationId } }',
    access: 'admin',
    isolation: { notFound: 'INVITATION_NOT_FOUND' },
  },
  {
    field: 'removeMember',
    query: 'mutation($personId: ID!) { removeMember(input: { personId: $personId }) { removedPersonId } }',
    access: 'admin',
    isolation: { notFound: 'MEMBER_NOT_FOUND' },
  },
  { field: 'webhooks', query: '{ webhooks { nodes { id url } } }', access: 'read', isolation: 'list' },
  {
    field: 'webhook',
    query: 'query($webhookId: ID!) { webhook(id: $webhookId) { id deliveries { nodes { id } } } }',
    access: 'read',
    isolation: { notFound: 'WEBHOOK_NOT_FOUND' },
  },
  {
    field: 'createWebhook',
    query: `mutation { createWebhook(input: { url: "${HOOK_URL}", eventTypes: ["build.failed"] }) { webhook { id } } }`,
    access: 'admin',
    isolation: 'none',
  },
  {
    field: 'updateWebhook',
    query:
      'mutation($webhookId: ID!) { updateWebhook(input: { id: $webhookId, eventTypes: ["build.published"] }) { webhook { id } } }',
    access: 'admin',
    isolation: { notFound: 'WEBHOOK_NOT_FOUND' },
  },
  {
    field: 'deleteWebhook',
    query: 'mutation($webhookId: ID!) { deleteWebhook(input: { id: $webhookId }) { deletedWebhookId } }',
    access: 'admin',
    isolation: { notFound: 'WEBHOOK_NOT_FOUND' },
  },
  {
    field: 'sendWebhookTest',
    query: 'mutation($webhookId: ID!) { sendWebhookTest(input: { id: $webhookId }) { delivery { id } } }',
    access: 'admin',
    isolation: { notFound: 'WEBHOOK_NOT_FOUND' },
  },
];

const fill = (path: string, ids: Ids) => path.replace(/\{(\w+)\}/g, (_, name: keyof Ids) => ids[name]);
/** Only the variables the document declares: GraphQL refuses undeclared ones. */
const variablesFor = (query: string, ids: Ids) =>
  Object.fromEntries(Object.entries(ids).filter(([name]) => query.includes(`$${name}:`)));
/** A refused query answers its field null; a refused mutation, whose payload is non-null, no data at all. */
const refusedData = (op: GqlOperation) => (op.query.startsWith('mutation') ? null : { [op.field]: null });
const label = (op: RestOperation) => `${op.method} ${op.path}`;

describe('admin API: tenancy, scopes, quotas and limits', () => {
  let platform: Platform;
  let admin: ReturnType<typeof apiClient>;
  let ownerKey: string;
  let intruderKey: string;
  let owner: ReturnType<typeof apiClient>;
  let intruder: ReturnType<typeof apiClient>;
  let ids: Ids;
  let mail: MailServer;
  /** People signed in: the owner tenant's owner, viewer and editor; the intruder tenant's owner. */
  let people: Record<'owner' | 'viewer' | 'editor' | 'intruder', SessionClient>;

  /** A person invited to the tenant with this role (by the operator) and signed in through the mailed link. */
  async function personIn(tenantId: string, email: string, role: string): Promise<SessionClient> {
    const since = mail.received.length;
    expect((await admin.post(`/v1/tenants/${tenantId}/invitations`, { email, role })).status).toBe(201);
    const token = linkToken(await mail.mailTo(email, since), 'accept-invitation');
    const accepted = await apiClient(platform.apiUrl).post('/v1/auth/accept-invitation', {
      token,
      password: 'a long enough password',
    });
    expect(accepted.status).toBe(200);
    return sessionClient(platform.apiUrl, accepted, tenantId);
  }

  /** A key of the owner tenant with these scopes. */
  async function ownerKeyWith(scopes: string[], name = scopes.join('+')): Promise<{ id: string; apiKey: string }> {
    const res = await owner.post('/v1/api-keys', { name, scopes });
    expect(res.status).toBe(201);
    return res.body;
  }

  beforeAll(async () => {
    mail = await startMailServer();
    platform = await startPlatform({ SMTP_URL: mail.url });
    admin = apiClient(platform.apiUrl, ADMIN_KEY);
    const ownerTenant = (await admin.post('/v1/tenants', { name: 'Owner' })).body;
    ownerKey = ownerTenant.apiKey;
    const intruderTenant = (await admin.post('/v1/tenants', { name: 'Intruder' })).body;
    intruderKey = intruderTenant.apiKey;
    owner = apiClient(platform.apiUrl, ownerKey);
    intruder = apiClient(platform.apiUrl, intruderKey);
    const siteId = (await owner.post('/v1/sites', { hostname: SITE })).body.id;
    await owner.put(
      `/v1/sites/${siteId}/urls`,
      [1, 2, 3].map((i) => ({ loc: `https://${SITE}/${i}` })),
    );
    const buildId = (await owner.post(`/v1/sites/${siteId}/builds`, {})).body.buildId;
    await owner.waitForBuild(siteId, buildId);
    const keyId = (await ownerKeyWith(['read'], 'owner-key')).id;
    const otherSiteId = (await intruder.post('/v1/sites', { hostname: 'b.example.com' })).body.id;
    const webhookId = (await owner.post('/v1/webhooks', { url: HOOK_URL, eventTypes: ['site.verified'] })).body.id;
    const deliveryId = (await owner.post(`/v1/webhooks/${webhookId}/test`)).body.id;
    people = {
      owner: await personIn(ownerTenant.id, 'owner@owner.test', 'owner'),
      viewer: await personIn(ownerTenant.id, 'viewer@owner.test', 'viewer'),
      editor: await personIn(ownerTenant.id, 'editor@owner.test', 'editor'),
      intruder: await personIn(intruderTenant.id, 'intruder@intruder.test', 'owner'),
    };
    const personId = (await people.owner.get('/v1/auth/session')).body.person.id;
    const invitationId = (await people.owner.post('/v1/invitations', { email: 'pending@owner.test', role: 'viewer' }))
      .body.id;
    ids = {
      tenantId: ownerTenant.id,
      siteId,
      buildId,
      keyId,
      otherSiteId,
      webhookId,
      deliveryId,
      personId,
      invitationId,
    };
  });
  afterAll(async () => {
    await platform?.close();
    await mail?.close();
  });

  /** What a list answered to another tenant must not hold. */
  function expectNoneOfTheOwners(body: unknown): void {
    const text = JSON.stringify(body);
    for (const secret of [ids.siteId, ids.keyId, ids.webhookId, ids.personId, ids.invitationId, SITE, '@owner.test'])
      expect(text).not.toContain(secret);
  }

  describe('coverage', () => {
    it('serves an OpenAPI document at /docs-json listing every REST path, and its UI at /docs', async () => {
      const json = await apiClient(platform.apiUrl).get('/docs-json');
      expect(json.status).toBe(200);
      expect(json.body.openapi).toMatch(/^3\./);
      expect(json.body.components.securitySchemes).toHaveProperty('bearer');
      const documented = Object.entries(json.body.paths as Record<string, Record<string, unknown>>)
        .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
        // /health is public; bulk imports are tested with the import endpoints.
        .filter((operation) => !operation.endsWith('/health') && !/import/.test(operation));
      expect(documented.sort()).toEqual(REST_OPERATIONS.map(label).sort());
      // Every answer that creates or queues something says where it is.
      for (const [path, methods] of Object.entries(
        json.body.paths as Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>,
      )) {
        for (const [method, operation] of Object.entries(methods)) {
          for (const status of ['201', '202'].filter((code) => operation.responses[code])) {
            expect(operation.responses[status]?.headers, `${method.toUpperCase()} ${path} ${status}`).toHaveProperty(
              'Location',
            );
          }
        }
      }
      const put = json.body.paths['/v1/sites/{siteId}/urls'].put;
      expect(put.requestBody.content['application/json'].schema).toMatchObject({
        type: 'array',
        maxItems: 10_000,
        items: { $ref: '#/components/schemas/UrlEntry' },
      });
      expect(json.body.components.schemas.UrlEntry).toMatchObject({ required: ['loc'] });
      expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '413', '429']));
      const list = json.body.paths['/v1/sites'].get;
      expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(['cursor', 'limit']);
      const ui = await fetch(`${platform.apiUrl}/docs`);
      expect(ui.status).toBe(200);
      expect(ui.headers.get('content-type')).toContain('text/html');
    });

    it('lists every GraphQL query and mutation in the table', async () => {
      const res = await graphqlClient(
        platform.apiUrl,
        ownerKey,
      )('{ __schema { queryType { fields { name } } mutationType { fields { name } } } }');
      const schema = res.body.data.__schema;
      const fields = [...schema.queryType.fields, ...schema.mutationType.fields].map((f: { name: string }) => f.name);
      expect(fields.sort()).toEqual(GQL_OPERATIONS.map((op) => op.field).sort());
    });
  });

  describe("another tenant's key", () => {
    it.each(REST_OPERATIONS.filter((op) => op.isolation !== 'none').map((op) => [label(op), op] as const))(
      'REST %s: 404 or an empty list, never data',
      async (_, op) => {
        const res = await intruder.call(op.method, fill(op.path, ids), op.body);
        if (op.isolation === 'list') {
          expect(res.status).toBe(200);
          expectNoneOfTheOwners(res.body);
        } else if (typeof op.isolation === 'object') {
          expect(res.status).toBe(404);
          expect(res.body).toEqual({
            error: { code: op.isolation.notFound, message: expect.any(String), details: [] },
          });
        }
      },
    );

    it.each(GQL_OPERATIONS.filter((op) => op.isolation !== 'none').map((op) => [op.field, op] as const))(
      'GraphQL %s: an error with the REST code or an empty list, never data',
      async (_, op) => {
        const res = await graphqlClient(platform.apiUrl, intruderKey)(op.query, variablesFor(op.query, ids));
        if (op.isolation === 'list') {
          expect(res.body.errors).toBeUndefined();
          expect(JSON.stringify(res.body.data)).not.toContain(ids.siteId);
          expect(JSON.stringify(res.body.data)).not.toContain(ids.keyId);
          expect(JSON.stringify(res.body.data)).not.toContain(ids.webhookId);
        } else if (op.isolation === 'null') {
          expect(res.body.errors).toBeUndefined();
          expect(Object.values(res.body.data)).toEqual([null, null, null, null, null]);
          // The owner's key reads the same ids, so the nulls above are the isolation, not a wrong query.
          const own = await graphqlClient(platform.apiUrl, ownerKey)(op.query, variablesFor(op.query, ids));
          expect(Object.values(own.body.data).map((node) => (node as { id: string } | null)?.id)).toEqual([
            ids.siteId,
            ids.buildId,
            ids.keyId,
            ids.webhookId,
            ids.deliveryId,
          ]);
        } else if (typeof op.isolation === 'object') {
          expect(res.body.data).toEqual(refusedData(op));
          expect(res.body.errors?.map((e) => e.extensions.code)).toEqual([op.isolation.notFound]);
        }
      },
    );

    it("cannot reach the owner's build through its own site either", async () => {
      const res = await intruder.get(`/v1/sites/${ids.otherSiteId}/builds/${ids.buildId}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('BUILD_NOT_FOUND');
      const gql = await graphqlClient(platform.apiUrl, intruderKey)(
        'query($s: ID!, $b: ID!) { build(siteId: $s, id: $b) { id } }',
        { s: ids.otherSiteId, b: ids.buildId },
      );
      expect(gql.body.errors?.[0]?.extensions.code).toBe('BUILD_NOT_FOUND');
    });

    it("changed none of the owner's objects", async () => {
      expect((await owner.get(`/v1/sites/${ids.siteId}`)).body).toMatchObject({ hostname: SITE, scheme: 'https' });
      expect((await owner.get(`/v1/sites/${ids.siteId}/urls`)).body.items.map((u: { loc: string }) => u.loc)).toEqual(
        [1, 2, 3].map((i) => `https://${SITE}/${i}`),
      );
      const builds = (await owner.get(`/v1/sites/${ids.siteId}/builds`)).body.items as {
        id: string;
        trigger: string;
      }[];
      expect(builds.filter((build) => build.trigger === 'api').map((build) => build.id)).toEqual([ids.buildId]);
      const keys = (await owner.get('/v1/api-keys')).body.items as { id: string; revokedAt: string | null }[];
      expect(keys.find((key) => key.id === ids.keyId)?.revokedAt).toBeNull();
      const members = (await owner.get('/v1/members')).body.items as { personId: string }[];
      expect(members.map((member) => member.personId)).toContain(ids.personId);
      const invitations = (await owner.get('/v1/invitations')).body.items as { id: string }[];
      expect(invitations.map((invitation) => invitation.id)).toEqual([ids.invitationId]);
    });
  });

  describe("another tenant's person, signed in", () => {
    it.each(REST_OPERATIONS.filter((op) => op.isolation !== 'none').map((op) => [label(op), op] as const))(
      'REST %s in their own tenant: 404 or an empty list, never data',
      async (_, op) => {
        const res = await people.intruder.call(op.method, fill(op.path, ids), op.body);
        if (op.isolation === 'list') {
          expect(res.status).toBe(200);
          expectNoneOfTheOwners(res.body);
        } else if (typeof op.isolation === 'object') {
          expect(res.status).toBe(404);
          expect(res.body.error.code).toBe(op.isolation.notFound);
        }
      },
    );

    it("gets 403 NOT_A_MEMBER on every route when naming the owner's tenant, REST and GraphQL", async () => {
      const headers = { 'x-tenant-id': ids.tenantId };
      for (const op of REST_OPERATIONS.filter((op) => op.access !== 'public')) {
        const res = await people.intruder.call(op.method, fill(op.path, ids), op.body, headers);
        expect(res.status, label(op)).toBe(403);
        expect(res.body.error.code, label(op)).toBe('NOT_A_MEMBER');
      }
      const gql = graphqlClient(platform.apiUrl, {
        cookie: people.intruder.cookie,
        'x-csrf-token': people.intruder.csrfToken,
        ...headers,
      });
      for (const op of GQL_OPERATIONS) {
        const res = await gql(op.query, variablesFor(op.query, ids));
        expect(
          res.body.errors?.map((e) => e.extensions.code),
          op.field,
        ).toEqual(['NOT_A_MEMBER']);
      }
    });

    it.each(GQL_OPERATIONS.filter((op) => op.isolation !== 'none').map((op) => [op.field, op] as const))(
      'GraphQL %s in their own tenant: an error with the REST code or an empty list, never data',
      async (_, op) => {
        const res = await graphqlClient(platform.apiUrl, {
          cookie: people.intruder.cookie,
          'x-csrf-token': people.intruder.csrfToken,
          'x-tenant-id': (await people.intruder.get('/v1/auth/session')).body.memberships[0].tenantId,
        })(op.query, variablesFor(op.query, ids));
        if (op.isolation === 'list') {
          expect(res.body.errors).toBeUndefined();
          expectNoneOfTheOwners(res.body.data);
        } else if (op.isolation === 'null') {
          expect(res.body.errors).toBeUndefined();
          expect(Object.values(res.body.data)).toEqual([null, null, null, null, null]);
        } else if (typeof op.isolation === 'object') {
          expect(res.body.data).toEqual(refusedData(op));
          expect(res.body.errors?.map((e) => e.extensions.code)).toEqual([op.isolation.notFound]);
        }
      },
    );
  });

  describe('scopes', () => {
    const weaker: Record<'read' | 'write' | 'admin', string[][]> = {
      read: [],
      write: [['read']],
      admin: [['read'], ['write'], ['read', 'write']],
    };
    /** Roles without the scope: a role is its scopes. */
    const weakerRoles: Record<'read' | 'write' | 'admin', ('viewer' | 'editor')[]> = {
      read: [],
      write: ['viewer'],
      admin: ['viewer', 'editor'],
    };

    it('every REST endpoint refuses a person whose role lacks the scope with 403, as it does a key', async () => {
      for (const op of REST_OPERATIONS) {
        if (op.access === 'public' || op.access === 'person') continue;
        if (op.access === 'platform') {
          const res = await people.owner.call(op.method, fill(op.path, ids), op.body);
          expect(res.status, label(op)).toBe(403);
          expect(res.body.error.code).toBe('FORBIDDEN');
          // Nor in no tenant: only a person with the operator role reaches the operator's routes.
          people.owner.actIn(undefined);
          try {
            const none = await people.owner.call(op.method, fill(op.path, ids), op.body);
            expect(none.status, `${label(op)} in no tenant`).toBe(403);
            expect(none.body.error.code).toBe('FORBIDDEN');
          } finally {
            people.owner.actIn(ids.tenantId);
          }
          continue;
        }
        for (const role of weakerRoles[op.access]) {
          const res = await people[role].call(op.method, fill(op.path, ids), op.body);
          expect(res.status, `${label(op)} as ${role}`).toBe(403);
          expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
        }
        if (op.access === 'read' && op.method === 'GET')
          expect((await people.viewer.call(op.method, fill(op.path, ids))).status, `${label(op)} as viewer`).toBe(200);
      }
    });

    it('every REST endpoint refuses a key without its scope with 403, and lets one with it through', async () => {
      const keys = new Map<string, string>();
      const keyFor = async (scopes: string[]): Promise<string> => {
        if (!keys.has(scopes.join())) keys.set(scopes.join(), (await ownerKeyWith(scopes)).apiKey);
        return keys.get(scopes.join()) as string;
      };
      for (const op of REST_OPERATIONS) {
        if (op.access === 'public') continue;
        if (op.access === 'platform' || op.access === 'person') {
          const res = await owner.call(op.method, fill(op.path, ids), op.body);
          expect(res.status, label(op)).toBe(403);
          expect(res.body.error.code).toBe('FORBIDDEN');
          continue;
        }
        for (const scopes of weaker[op.access]) {
          const res = await apiClient(platform.apiUrl, await keyFor(scopes)).call(
            op.method,
            fill(op.path, ids),
            op.body,
          );
          expect(res.status, `${label(op)} with ${scopes}`).toBe(403);
          expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
        }
        // The platform key administers tenants, not their objects.
        expect(
          (await admin.call(op.method, fill(op.path, ids), op.body)).status,
          `${label(op)} with the platform key`,
        ).toBe(403);
        // Reads answer 200 with nothing to send (POST /v1/validate needs a document: test/validate.e2e-spec.ts).
        if (op.access === 'read' && op.method === 'GET') {
          const res = await apiClient(platform.apiUrl, await keyFor(['read'])).call(op.method, fill(op.path, ids));
          expect(res.status, `${label(op)} with read`).toBe(200);
        }
      }
    });

    it('every GraphQL operation does the same', async () => {
      const read = graphqlClient(platform.apiUrl, (await ownerKeyWith(['read'])).apiKey);
      const write = graphqlClient(platform.apiUrl, (await ownerKeyWith(['write'])).apiKey);
      for (const op of GQL_OPERATIONS) {
        const variables = variablesFor(op.query, ids);
        const refusing =
          op.access === 'platform'
            ? [graphqlClient(platform.apiUrl, ownerKey)]
            : op.access === 'admin'
              ? [read, write]
              : op.access === 'write'
                ? [read]
                : [];
        for (const client of refusing) {
          const res = await client(op.query, variables);
          expect(res.body.data, op.field).toEqual(refusedData(op));
          expect(res.body.errors?.[0]?.extensions.code, op.field).toBe(
            op.access === 'platform' ? 'FORBIDDEN' : 'INSUFFICIENT_SCOPE',
          );
        }
        if (op.access === 'read') expect((await read(op.query, variables)).body.errors, op.field).toBeUndefined();
      }
    });

    it('admin implies write: an admin key writes', async () => {
      const res = await owner.put(`/v1/sites/${ids.siteId}/urls`, [{ loc: `https://${SITE}/1` }]);
      expect(res.status).toBe(200);
    });
  });

  describe('revoked keys', () => {
    it('answer 401 on every REST endpoint and GraphQL operation, revoked through either', async () => {
      const viaRest = await ownerKeyWith(['admin'], 'doomed-rest');
      const viaGql = await ownerKeyWith(['admin'], 'doomed-gql');
      expect((await apiClient(platform.apiUrl, viaRest.apiKey).get('/v1/sites')).status).toBe(200);
      expect((await owner.delete(`/v1/api-keys/${viaRest.id}`)).status).toBe(204);
      const revoked = await graphqlClient(platform.apiUrl, ownerKey)(
        'mutation($id: ID!) { revokeApiKey(input: { id: $id }) { apiKey { id revokedAt } } }',
        { id: viaGql.id },
      );
      expect(revoked.body.data).toEqual({ revokeApiKey: { apiKey: { id: viaGql.id, revokedAt: expect.any(String) } } });

      for (const key of [viaRest.apiKey, viaGql.apiKey]) {
        for (const op of REST_OPERATIONS.filter((op) => op.access !== 'public')) {
          const res = await apiClient(platform.apiUrl, key).call(op.method, fill(op.path, ids), op.body);
          expect(res.status, label(op)).toBe(401);
          expect(res.body.error.code).toBe('UNAUTHENTICATED');
        }
        for (const op of GQL_OPERATIONS) {
          const res = await graphqlClient(platform.apiUrl, key)(op.query, variablesFor(op.query, ids));
          expect(res.status, op.field).toBe(401);
          expect(res.body.errors?.map((e) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
        }
      }
      const listed = (await owner.get('/v1/api-keys?limit=1000')).body.items as {
        id: string;
        revokedAt: string | null;
      }[];
      expect(
        listed
          .filter((key) => key.revokedAt)
          .map((key) => key.id)
          .sort(),
      ).toEqual([viaRest.id, viaGql.id].sort());
    });
  });

  describe('pagination', () => {
    it('pages through API keys with a cursor, REST and GraphQL alike', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { body: { items: { id: string }[]; nextCursor: string | null } } = await owner.get(
          `/v1/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.items.map((key) => key.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      const all = (await owner.get('/v1/api-keys?limit=1000')).body.items.map((key: { id: string }) => key.id);
      expect(seen).toEqual(all);
      expect(all.length).toBeGreaterThan(4);
      const gql = await graphqlClient(
        platform.apiUrl,
        ownerKey,
      )('{ apiKeys(first: 1000) { nodes { id } pageInfo { hasNextPage } } }');
      expect(gql.body.data.apiKeys.nodes.map((key: { id: string }) => key.id)).toEqual(all);
      expect((await owner.get('/v1/api-keys?limit=0')).status).toBe(400);
      expect((await owner.get('/v1/api-keys?cursor=%%%')).body.error.code).toBe('INVALID_CURSOR');
    });
  });

  describe('quotas', () => {
    it('refuses a site over tenants.max_sites with 403 QUOTA_SITES', async () => {
      const key = (await admin.post('/v1/tenants', { name: 'Small', maxSites: 1 })).body.apiKey;
      const client = apiClient(platform.apiUrl, key);
      expect((await client.post('/v1/sites', { hostname: 'small-1.example.com' })).status).toBe(201);
      const second = await client.post('/v1/sites', { hostname: 'small-2.example.com' });
      expect(second.status).toBe(403);
      expect(second.body.error.code).toBe('QUOTA_SITES');
      const gql = await graphqlClient(
        platform.apiUrl,
        key,
      )('mutation { createSite(input: { hostname: "small-3.example.com" }) { site { id } } }');
      expect(gql.body.errors?.[0]?.extensions.code).toBe('QUOTA_SITES');
    });

    it("refuses a batch that would take live URLs across the tenant's sites over tenants.max_urls with 403 QUOTA_URLS (the status of every quota), storing none of it", async () => {
      const key = (await admin.post('/v1/tenants', { name: 'Capped', maxUrls: 5 })).body.apiKey;
      const client = apiClient(platform.apiUrl, key);
      const gql = graphqlClient(platform.apiUrl, key);
      const one = (await client.post('/v1/sites', { hostname: 'capped-1.example.com' })).body.id;
      const two = (await client.post('/v1/sites', { hostname: 'capped-2.example.com' })).body.id;
      const loc = (site: number, path: string) => `https://capped-${site}.example.com/${path}`;
      expect(
        (await client.put(`/v1/sites/${one}/urls`, [{ loc: loc(1, 'a') }, { loc: loc(1, 'b') }])).body.upserted,
      ).toBe(2);
      expect((await client.put(`/v1/sites/${two}/urls`, [{ loc: loc(2, 'a') }])).body.upserted).toBe(1);
      const count = async () =>
        (await client.get(`/v1/sites/${one}/urls`)).body.items.length +
        (await client.get(`/v1/sites/${two}/urls`)).body.items.length;

      // Room for 2: an update of a stored URL, an invalid entry and a repeated loc take none; the third new URL does not fit.
      const batch = [
        { loc: loc(2, 'a'), priority: 0.9 },
        { loc: loc(2, 'b') },
        { loc: 'https://elsewhere.example.com/x' },
        { loc: loc(2, 'c') },
        { loc: loc(2, 'b') },
        { loc: loc(2, 'd') },
      ];
      const refused = await client.put(`/v1/sites/${two}/urls`, batch);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: 'QUOTA_URLS',
        details: [{ index: 5, field: 'loc', code: 'QUOTA_URLS', message: expect.any(String) }],
      });
      expect(refused.body.error.message).toContain('5 URLs');
      const viaGql = await gql(
        'mutation($s: ID!, $e: [UrlInput!]!) { upsertUrls(input: { siteId: $s, entries: $e }) { upserted } }',
        { s: two, e: batch },
      );
      expect(viaGql.body.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_URLS', details: [{ index: 5 }] });
      expect(await count()).toBe(3);

      const fits = await client.put(`/v1/sites/${two}/urls`, batch.slice(0, 5));
      expect(fits.status).toBe(200);
      expect(fits.body.upserted).toBe(4);
      expect(await count()).toBe(5);
      expect((await client.put(`/v1/sites/${one}/urls`, [{ loc: loc(1, 'c') }])).status).toBe(403);
      // Updates still go through at the limit, and deleting makes room.
      expect((await client.put(`/v1/sites/${one}/urls`, [{ loc: loc(1, 'a'), changefreq: 'daily' }])).status).toBe(200);
      await client.delete(`/v1/sites/${one}/urls`, { locs: [loc(1, 'b')] });
      expect((await client.put(`/v1/sites/${one}/urls`, [{ loc: loc(1, 'c') }])).status).toBe(200);
    });
  });

  describe('rate and size limits', () => {
    let limited: NestFastifyApplication;
    let limitedUrl: string;

    beforeAll(async () => {
      // A second API on the same database and Redis, with small limits.
      limited = await createApiApp(platform.config, {
        rateLimit: { points: 3, durationSeconds: 60 },
        bulkBodyLimitBytes: 4_096,
      });
      await limited.listen(0, '127.0.0.1');
      limitedUrl = (await limited.getUrl()).replace('[::1]', '127.0.0.1');
    });
    afterAll(() => limited?.close());

    it('answers 429 with Retry-After once a key spends its requests, per key', async () => {
      const first = apiClient(limitedUrl, (await ownerKeyWith(['read'], 'burst-1')).apiKey);
      for (let i = 0; i < 3; i++) expect((await first.get('/v1/sites')).status).toBe(200);
      const refused = await first.get('/v1/sites');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: { code: 'RATE_LIMITED', message: expect.stringContaining('3 requests per 60 s'), details: [] },
      });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another key of the same tenant has its own allowance.
      expect(
        (await apiClient(limitedUrl, (await ownerKeyWith(['read'], 'burst-2')).apiKey).get('/v1/sites')).status,
      ).toBe(200);
    });

    it('counts a GraphQL request once whatever it asks, and answers 429 with Retry-After', async () => {
      const gql = graphqlClient(limitedUrl, (await ownerKeyWith(['read'], 'burst-gql')).apiKey);
      for (let i = 0; i < 3; i++) {
        const res = await gql(
          'query($siteId: ID!) { sites { nodes { id } } site(id: $siteId) { id } builds(siteId: $siteId) { nodes { id } } }',
          { siteId: ids.siteId },
        );
        expect(res.body.errors).toBeUndefined();
      }
      const refused = await gql('{ sites { nodes { id } } }');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.errors?.map((e) => e.extensions.code)).toEqual(['RATE_LIMITED']);
    });

    it('answers 413 in the error shape for a body over the size limit', async () => {
      const key = (await ownerKeyWith(['write'], 'big-bodies')).apiKey;
      const client = apiClient(limitedUrl, key);
      const entries = Array.from({ length: 200 }, (_, i) => ({ loc: `https://${SITE}/big/${i}` }));
      const res = await client.put(`/v1/sites/${ids.siteId}/urls`, entries);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String), details: [] } });
      const gql = await graphqlClient(limitedUrl, key)(
        'mutation($s: ID!, $e: [UrlInput!]!) { upsertUrls(input: { siteId: $s, entries: $e }) { upserted } }',
        { s: ids.siteId, e: entries },
      );
      expect(gql.status).toBe(413);
      expect(gql.body.errors?.map((e) => e.extensions.code)).toEqual(['PAYLOAD_TOO_LARGE']);
      // More entries than one request may carry: 413 too, whatever the body size limit.
      const tooMany = await graphqlClient(platform.apiUrl, ownerKey)(
        'mutation($s: ID!, $e: [UrlInput!]!) { upsertUrls(input: { siteId: $s, entries: $e }) { upserted } }',
        {
          s: ids.siteId,
          e: Array.from({ length: 10_001 }, (_, i) => ({ loc: `https://${SITE}/${i}` })),
        },
      );
      expect(tooMany.body.errors?.[0]?.extensions.code).toBe('TOO_MANY_ENTRIES');
      // None of these reached a handler, so none spent the key's requests.
      expect((await client.get('/v1/sites')).status).toBe(200);
    });
  });
});
