// GraphQL at /graphql against real servers: the same answers as REST for the same questions
// (both go through the same services), the same error codes, and depth and cost limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alternateSchema,
  CHANGEFREQS,
  imageSchema,
  newsSchema,
  RETIRED_IMAGE_FIELDS,
  RETIRED_NEWS_FIELDS,
  RETIRED_VIDEO_FIELDS,
  videoSchema,
} from '@sitemaps/sitemap-xml';
import { waitUntil } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenantWithSite } from './support/tenant';

interface GqlError {
  message: string;
  extensions: { code: string; details: { field?: string; index?: number; code?: string; message: string }[] };
}
interface GqlResponse<T> {
  status: number;
  headers: Headers;
  body: { data?: T | null; errors?: GqlError[] };
}

function graphqlClient(baseUrl: string, key?: string) {
  return async <T = any>(query: string, variables?: Record<string, unknown>): Promise<GqlResponse<T>> => {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as GqlResponse<T>['body'],
    };
  };
}

const SITE_FIELDS =
  'id hostname scheme defaultChangefreq defaultPriority rebuildCron robotsTxt cacheMaxAge textSitemap indexNowKey sitemapUrl crossSubmitRobotsLine xslStylesheet shardSize sectionShardSizes { section shardSize } staleAfterDays createdAt updatedAt verification { status token dnsRecord { type name value } fileUrl verifiedAt checkedAt nextCheckAt error { code message } }';
const VIDEO_FIELDS =
  'thumbnailLoc title description contentLoc playerLoc duration expirationDate rating viewCount publicationDate familyFriendly restriction { relationship countries } platform { relationship platforms } requiresSubscription uploader { name info } live tags';
const URL_FIELDS = `loc section lastmod changefreq priority alternates { hreflang href } images { loc } videos { ${VIDEO_FIELDS} } news { publicationName publicationLanguage publicationDate title } excluded updatedAt`;
const BUILD_FIELDS =
  'id siteId status full trigger shardsRendered shardsSkipped urlCount byteSize timings indexNow error createdAt startedAt finishedAt';
const SHARD_FIELDS = 'id section ordinal path urlCount byteSize dirty createdAt';
const HOST = 'shop.example.com';

describe('GraphQL API', () => {
  let platform: Platform;
  let rest: ReturnType<typeof apiClient>;
  let gql: ReturnType<typeof graphqlClient>;
  let siteId: string;
  let buildId: string;
  let midpoint: string;

  /** Every page of a REST list, following nextCursor; the cursors come along to compare. */
  async function restAll(path: string, limit: number): Promise<{ items: unknown[]; cursors: (string | null)[] }> {
    const items: unknown[] = [];
    const cursors: (string | null)[] = [];
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const res: { status: number; body: { items: unknown[]; nextCursor: string | null } } = await rest.get(
        `${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status, path).toBe(200);
      items.push(...res.body.items);
      cursor = res.body.nextCursor;
      cursors.push(cursor);
    } while (cursor);
    return { items, cursors };
  }

  /** Every page of a GraphQL connection, following pageInfo. */
  async function gqlAll(
    field: string,
    args: string,
    selection: string,
    first: number,
  ): Promise<{ items: unknown[]; cursors: (string | null)[] }> {
    const items: unknown[] = [];
    const cursors: (string | null)[] = [];
    let after: string | null = null;
    for (;;) {
      const res: GqlResponse<any> = await gql(
        `query($first: Int, $after: String) { page: ${field}(${args}${args ? ', ' : ''}first: $first, after: $after) { nodes { ${selection} } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
        { first, after },
      );
      expect(res.body.errors, field).toBeUndefined();
      const page: {
        nodes: unknown[];
        edges: { cursor: string }[];
        pageInfo: {
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          startCursor: string | null;
          endCursor: string | null;
        };
      } = res.body.data.page;
      // Relay's PageInfo: the first and last edges' cursors, and a previous page once past the first.
      expect(page.pageInfo).toMatchObject({
        hasPreviousPage: after !== null,
        startCursor: page.edges[0]?.cursor ?? null,
        endCursor: page.edges.at(-1)?.cursor ?? null,
      });
      items.push(...page.nodes);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      cursors.push(after);
      if (!after) break;
    }
    return { items, cursors };
  }

  beforeAll(async () => {
    platform = await startPlatform();
    const shop = await createTenantWithSite(platform.apiUrl, 'Shop', { hostname: HOST });
    ({ api: rest, siteId } = shop);
    gql = graphqlClient(platform.apiUrl, shop.apiKey);
    await rest.post('/v1/sites', { hostname: 'blog.example.com', defaultChangefreq: 'weekly' });
    const products = Array.from({ length: 12 }, (_, i) => ({
      loc: `https://${HOST}/products/${i}`,
      section: 'products',
      lastmod: '2026-01-0' + ((i % 9) + 1),
      priority: 0.5,
      ...(i < 3 ? { images: [{ loc: `https://${HOST}/img/${i}.jpg` }] } : {}),
    }));
    const pages = Array.from({ length: 9 }, (_, i) => ({ loc: `https://${HOST}/pages/${i}`, changefreq: 'daily' }));
    const translated = ['en', 'fr', 'de'].map((lang) => ({
      loc: `https://${HOST}/${lang}/about`,
      hreflang: lang,
      alternates: ['en', 'fr', 'de'].map((code) => ({ hreflang: code, href: `https://${HOST}/${code}/about` })),
    }));
    expect((await rest.put(`/v1/sites/${siteId}/urls`, [...products, ...pages, ...translated])).body.errors).toEqual(
      [],
    );
    // Later changes, to filter on changedSince.
    await new Promise((resolve) => setTimeout(resolve, 20));
    midpoint = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await rest.put(`/v1/sites/${siteId}/urls`, [
      { loc: `https://${HOST}/pages/0`, changefreq: 'hourly' },
      { loc: `https://${HOST}/pages/new` },
    ]);
    buildId = (await rest.post(`/v1/sites/${siteId}/builds`, { full: true })).body.buildId;
    expect((await rest.waitForBuild(siteId, buildId)).status).toBe('published');
    // The IndexNow drain records its result on the build after the publish: wait, so the build
    // compared field by field below no longer changes between the REST and the GraphQL read.
    await waitUntil(
      'the build to record its IndexNow result',
      async () => (await rest.get(`/v1/sites/${siteId}/builds/${buildId}`)).body.indexNow !== null,
    );
  });
  afterAll(() => platform?.close());

  describe('answers queries as REST does', () => {
    it('sites, page by page, with the same cursors', async () => {
      const viaRest = await restAll('/v1/sites', 1);
      const viaGql = await gqlAll('sites', '', SITE_FIELDS, 1);
      expect(viaRest.items).toHaveLength(2);
      expect(viaGql).toEqual(viaRest);
    });

    it('one site', async () => {
      const res = await gql(`query($id: ID!) { site(id: $id) { ${SITE_FIELDS} } }`, { id: siteId });
      expect(res.body.data?.site).toEqual((await rest.get(`/v1/sites/${siteId}`)).body);
    });

    it.each([
      ['no filter', {}],
      ['prefix', { prefix: `https://${HOST}/products/1` }],
      ['section', { section: 'products' }],
      ['default section', { section: '' }],
      ['changedSince', { changedSince: 'MIDPOINT' }],
      ['prefix and section', { prefix: `https://${HOST}/pages/`, section: '' }],
    ] as [string, Record<string, string>][])('urls filtered by %s, page by page', async (_, filter) => {
      const values = Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, v === 'MIDPOINT' ? midpoint : v]));
      const query = new URLSearchParams(values).toString();
      const viaRest = await restAll(`/v1/sites/${siteId}/urls${query ? `?${query}` : ''}`, 5);
      const args = [
        `siteId: ${JSON.stringify(siteId)}`,
        ...Object.entries(values).map(([k, v]) => `${k}: ${JSON.stringify(v)}`),
      ].join(', ');
      const viaGql = await gqlAll('urls', args, URL_FIELDS, 5);
      expect(viaRest.items.length).toBeGreaterThan(0);
      expect(viaGql).toEqual(viaRest);
    });

    it('the filters select what they say', async () => {
      const locs = async (args: string) =>
        (await gqlAll('urls', `siteId: "${siteId}"${args}`, 'loc', 100)).items.map(
          (item) => (item as { loc: string }).loc,
        );
      expect(await locs(`, prefix: "https://${HOST}/products/1"`)).toEqual([
        `https://${HOST}/products/1`,
        `https://${HOST}/products/10`,
        `https://${HOST}/products/11`,
      ]);
      expect(await locs(', section: "products"')).toHaveLength(12);
      expect(await locs(`, changedSince: "${midpoint}"`)).toEqual([
        `https://${HOST}/pages/0`,
        `https://${HOST}/pages/new`,
      ]);
      const about = await gql(
        `{ urls(siteId: "${siteId}", prefix: "https://${HOST}/fr/") { nodes { alternates { hreflang href } } } }`,
      );
      expect(about.body.data.urls.nodes[0].alternates.map((a: { hreflang: string }) => a.hreflang)).toEqual([
        'de',
        'en',
        'fr',
      ]);
    });

    it('builds and one build', async () => {
      await rest.post(`/v1/sites/${siteId}/builds`, {});
      const viaRest = await restAll(`/v1/sites/${siteId}/builds`, 1);
      const viaGql = await gqlAll('builds', `siteId: "${siteId}"`, BUILD_FIELDS, 1);
      expect(viaRest.items.length).toBeGreaterThanOrEqual(2);
      // Builds run meanwhile: compare ids and order, then one finished build field by field.
      expect(viaGql.items.map((b) => (b as { id: string }).id)).toEqual(
        viaRest.items.map((b) => (b as { id: string }).id),
      );
      const one = await gql(
        `{ build(siteId: "${siteId}", id: "${buildId}") { ${BUILD_FIELDS} site { id hostname } } }`,
      );
      const { site, ...build } = one.body.data.build;
      expect(build).toEqual((await rest.get(`/v1/sites/${siteId}/builds/${buildId}`)).body);
      expect(site).toEqual({ id: siteId, hostname: HOST });
    });

    it('shards, at the top and as a field of the site', async () => {
      const viaRest = await restAll(`/v1/sites/${siteId}/shards`, 1);
      expect(viaRest.items.map((s) => (s as { path: string }).path).sort()).toEqual([
        '/sitemap-1.xml.gz',
        '/sitemap-products-1.xml.gz',
      ]);
      expect(await gqlAll('shards', `siteId: "${siteId}"`, SHARD_FIELDS, 1)).toEqual(viaRest);
      const nested = await gql(`{ site(id: "${siteId}") { shards { nodes { ${SHARD_FIELDS} } } } }`);
      expect(nested.body.data.site.shards.nodes).toEqual(viaRest.items);
    });
  });

  describe('Node', () => {
    const NODE_FIELDS = `__typename id
      ... on Site { hostname }
      ... on Build { status siteId }
      ... on Webhook { url }
      ... on WebhookDelivery { eventType webhookId }
      ... on ApiKey { name }`;

    it('resolves each node type by its id, the one its own query returns', async () => {
      const key = (await rest.post('/v1/api-keys', { name: 'node-key', scopes: ['read'] })).body;
      const webhookId = (
        await rest.post('/v1/webhooks', { url: 'https://hooks.invalid/in', eventTypes: ['build.failed'] })
      ).body.id;
      const deliveryId = (await rest.post(`/v1/webhooks/${webhookId}/test`)).body.id;
      const expected = {
        site: { __typename: 'Site', id: siteId, hostname: HOST },
        build: { __typename: 'Build', id: buildId, status: 'published', siteId },
        webhook: { __typename: 'Webhook', id: webhookId, url: 'https://hooks.invalid/in' },
        delivery: { __typename: 'WebhookDelivery', id: deliveryId, eventType: 'webhook.test', webhookId },
        key: { __typename: 'ApiKey', id: key.id, name: 'node-key' },
      };
      const ids = Object.entries({
        site: siteId,
        build: buildId,
        webhook: webhookId,
        delivery: deliveryId,
        key: key.id,
      });
      const res = await gql(
        `{ ${ids.map(([alias, id]) => `${alias}: node(id: "${id}") { ${NODE_FIELDS} }`).join(' ')} }`,
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data).toEqual(expected);
      const types = await gql('{ __type(name: "Node") { kind possibleTypes { name } } }');
      expect(types.body.data.__type.kind).toBe('INTERFACE');
      expect(types.body.data.__type.possibleTypes.map((t: { name: string }) => t.name).sort()).toEqual([
        'ApiKey',
        'Build',
        'CreatedApiKey', // the answers of createApiKey and createWebhook: the same objects, with their secret
        'CreatedWebhook',
        'Site',
        'Webhook',
        'WebhookDelivery',
      ]);
    });

    it("answers null for an unknown id, a malformed one and another tenant's object alike", async () => {
      const other = apiClient(
        platform.apiUrl,
        (await apiClient(platform.apiUrl, ADMIN_KEY).post('/v1/tenants', { name: 'Other' })).body.apiKey,
      );
      const otherSiteId = (await other.post('/v1/sites', { hostname: 'other.example.org' })).body.id;
      const res = await gql(
        `{ unknown: node(id: "00000000-0000-4000-8000-000000000000") { id } malformed: node(id: "Site:1") { id } other: node(id: "${otherSiteId}") { id } }`,
      );
      expect(res.body).toEqual({ data: { unknown: null, malformed: null, other: null } });
      // The other tenant's own key does resolve it: the null above is the tenant scope.
      const own = await graphqlClient(
        platform.apiUrl,
        (await other.post('/v1/api-keys', { name: 'k' })).body.apiKey,
      )(`{ node(id: "${otherSiteId}") { ... on Site { hostname } } }`);
      expect(own.body.data).toEqual({ node: { hostname: 'other.example.org' } });
    });
  });

  describe('mutations go through the same services', () => {
    const bad = [
      { loc: `https://${HOST}/ok-a`, lastmod: '2026-02-03' },
      { loc: 'https://elsewhere.example.com/x' },
      { loc: `https://${HOST}/bad-prio`, priority: 1.5 },
      { loc: `https://${HOST}/bad-date`, lastmod: '2026-13-45' },
      { loc: `https://${HOST}/${'x'.repeat(2_100)}` },
      { loc: `https://${HOST}/ok-b`, section: 'products' },
    ];

    it('upsertUrls validates each entry and reports it by index, as PUT does', async () => {
      const viaRest = await rest.put(`/v1/sites/${siteId}/urls`, bad);
      const viaGql = await gql(
        `mutation($input: UpsertUrlsInput!) { upsertUrls(input: $input) { upserted changed errors { index loc field code message } warnings { index code } } }`,
        { input: { siteId, entries: bad } },
      );
      expect(viaRest.body.upserted).toBe(2);
      expect(viaRest.body.errors.map((e: { index: number }) => e.index)).toEqual([1, 2, 3, 4]);
      const { changed: _restChanged, ...restResult } = viaRest.body;
      const { changed, ...gqlResult } = viaGql.body.data.upsertUrls;
      expect(changed).toBe(0); // REST stored them already
      expect(gqlResult).toEqual(restResult);
    });

    it('deleteUrls answers as DELETE does', async () => {
      const viaGql = await gql(
        `mutation { deleteUrls(input: { siteId: "${siteId}", locs: ["https://${HOST}/ok-a", "https://${HOST}/never"] }) { deleted notFound } }`,
      );
      expect(viaGql.body.data.deleteUrls).toEqual({ deleted: 1, notFound: [`https://${HOST}/never`] });
      const viaRest = await rest.delete(`/v1/sites/${siteId}/urls`, {
        locs: [`https://${HOST}/ok-a`, `https://${HOST}/ok-b`],
      });
      expect(viaRest.body).toEqual({ deleted: 1, notFound: [`https://${HOST}/ok-a`] });
      expect(
        (await gql(`mutation { deleteUrls(input: { siteId: "${siteId}", locs: [] }) { deleted } }`)).body.errors?.[0]
          ?.extensions,
      ).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'locs' }] });
    });

    it("createSite, updateSite and deleteSite with REST's validation", async () => {
      const created = await gql(
        `mutation { createSite(input: { hostname: "News.Example.com", scheme: http }) { site { id hostname scheme } } }`,
      );
      const id = created.body.data.createSite.site.id;
      expect(created.body.data.createSite.site).toEqual({ id, hostname: 'news.example.com', scheme: 'http' });
      expect(
        (await gql(`mutation { createSite(input: { hostname: "news.example.com" }) { site { id } } }`)).body.errors?.[0]
          ?.extensions.code,
      ).toBe('HOSTNAME_TAKEN');

      const updated = await gql(
        `mutation($id: ID!) { updateSite(input: { id: $id, defaultPriority: 0.3, textSitemap: true }) { site { ${SITE_FIELDS} } } }`,
        { id },
      );
      expect(updated.body.data.updateSite.site).toEqual((await rest.get(`/v1/sites/${id}`)).body);
      expect(updated.body.data.updateSite.site).toMatchObject({ defaultPriority: 0.3, textSitemap: true });

      const invalidGql = await gql(
        `mutation($id: ID!) { updateSite(input: { id: $id, defaultPriority: 2, cacheMaxAge: -1 }) { site { id } } }`,
        { id },
      );
      const invalidRest = await rest.patch(`/v1/sites/${id}`, { defaultPriority: 2, cacheMaxAge: -1 });
      expect(invalidRest.status).toBe(400);
      expect(invalidGql.body.errors?.[0]?.extensions.code).toBe(invalidRest.body.error.code);
      expect(invalidGql.body.errors?.[0]?.extensions.details.map((d) => d.field).sort()).toEqual([
        'cacheMaxAge',
        'defaultPriority',
      ]);

      expect((await gql(`mutation { deleteSite(input: { id: "${id}" }) { deletedSiteId } }`)).body.data).toEqual({
        deleteSite: { deletedSiteId: id },
      });
      expect((await rest.get(`/v1/sites/${id}`)).status).toBe(404);
    });

    it("types a URL's extensions as the validator's zod schemas do, and enumerates changefreq", async () => {
      // Google's retired fields, which REST accepts with a warning, have no GraphQL type.
      const schemas = {
        Alternate: [alternateSchema, []],
        Image: [imageSchema, RETIRED_IMAGE_FIELDS],
        Video: [videoSchema, RETIRED_VIDEO_FIELDS],
        News: [newsSchema, RETIRED_NEWS_FIELDS],
      } as const;
      for (const [name, [schema, retired]] of Object.entries(schemas)) {
        const expected = Object.keys(schema.shape)
          .filter((field) => !(retired as readonly string[]).includes(field))
          .sort();
        const res = await gql(
          `{ output: __type(name: "${name}") { fields { name } } input: __type(name: "${name}Input") { inputFields { name } } }`,
        );
        const { output, input } = res.body.data;
        expect(output.fields.map((f: { name: string }) => f.name).sort(), name).toEqual(expected);
        expect(input.inputFields.map((f: { name: string }) => f.name).sort(), name).toEqual(expected);
      }
      const changefreq = await gql('{ __type(name: "Changefreq") { kind enumValues { name } } }');
      const { kind, enumValues } = changefreq.body.data.__type as { kind: string; enumValues: { name: string }[] };
      expect([kind, enumValues.map((value) => value.name).sort()]).toEqual(['ENUM', [...CHANGEFREQS].sort()]);
    });

    it('refuses a value outside an enum before running, naming the field and the enum', async () => {
      const viaVariables = await gql(
        'mutation($input: UpdateSiteInput!) { updateSite(input: $input) { site { id } } }',
        { input: { id: siteId, scheme: 'ftp' } },
      );
      expect(viaVariables.status).toBe(400);
      expect(viaVariables.body.data ?? null).toBeNull();
      expect(viaVariables.body.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(viaVariables.body.errors?.[0]?.message).toMatch(
        /"input\.scheme".*Value "ftp" does not exist in "Scheme" enum/,
      );

      const entries = [{ loc: `https://${HOST}/bad-cf`, changefreq: 'sometimes' }];
      const badEntry = await gql('mutation($input: UpsertUrlsInput!) { upsertUrls(input: $input) { upserted } }', {
        input: { siteId, entries },
      });
      expect(badEntry.status).toBe(400);
      expect(badEntry.body.errors?.[0]?.message).toMatch(
        /"input\.entries\[0\]\.changefreq".*Value "sometimes" does not exist in "Changefreq" enum/,
      );
      // REST, without the enum, reports the same value by index and field.
      const viaRest = await rest.put(`/v1/sites/${siteId}/urls`, entries);
      expect(viaRest.body.errors).toMatchObject([{ index: 0, field: 'changefreq' }]);

      const literal = await gql('mutation { createApiKey(input: { name: "k", scopes: [root] }) { apiKey { id } } }');
      expect(literal.status).toBe(400);
      expect(literal.body.errors?.[0]?.message).toMatch(/^Argument "input" has invalid value .*scopes: \[root\]/);
    });

    it('createBuild queues a build REST can follow', async () => {
      const res = await gql(
        `mutation { createBuild(input: { siteId: "${siteId}", full: true }) { build { id status full trigger } } }`,
      );
      const build = res.body.data.createBuild.build;
      expect(build).toMatchObject({ status: 'queued', full: true, trigger: 'api' });
      expect((await rest.waitForBuild(siteId, build.id)).status).toBe('published');
    });
  });

  describe('errors', () => {
    it('carry the REST codes in extensions.code, with details and no stack', async () => {
      const missing = await gql(`{ site(id: "00000000-0000-4000-8000-000000000000") { id } }`);
      expect(missing.status).toBe(200);
      expect(missing.body.data).toEqual({ site: null });
      expect(missing.body.errors).toEqual([
        {
          message: expect.any(String),
          locations: expect.any(Array),
          path: ['site'],
          extensions: { code: 'SITE_NOT_FOUND', details: [] },
        },
      ]);
      expect((await gql(`{ site(id: "not-a-uuid") { id } }`)).body.errors?.[0]?.extensions.code).toBe('SITE_NOT_FOUND');
      expect(
        (await gql(`{ build(siteId: "${siteId}", id: "00000000-0000-4000-8000-000000000000") { id } }`)).body
          .errors?.[0]?.extensions.code,
      ).toBe('BUILD_NOT_FOUND');
      const cursor = await gql(`{ urls(siteId: "${siteId}", after: "bm90LWEtbnVtYmVy") { nodes { loc } } }`);
      expect(cursor.body.errors?.[0]?.extensions.code).toBe('INVALID_CURSOR');
      expect((await rest.get(`/v1/sites/${siteId}/urls?cursor=bm90LWEtbnVtYmVy`)).body.error.code).toBe(
        'INVALID_CURSOR',
      );
      const tooMany = await gql(`{ sites(first: 5000) { nodes { id } } }`);
      expect(tooMany.body.errors?.[0]?.extensions).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ field: 'first' }],
      });
    });

    it('refuses a missing or unknown key with 401', async () => {
      for (const client of [graphqlClient(platform.apiUrl), graphqlClient(platform.apiUrl, 'smk_unknown')]) {
        const res = await client(`{ sites { nodes { id } } }`);
        expect(res.status).toBe(401);
        expect(res.body.errors?.map((e) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
        // Refused before the document is read: nothing ran, so no data at all.
        expect(res.body.data).toBeNull();
      }
    });

    it('refuses a malformed or invalid query with 400', async () => {
      const syntax = await gql('{ sites { nodes { id }');
      expect(syntax.status).toBe(400);
      expect(syntax.body.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const unknownField = await gql('{ sites { nodes { password } } }');
      expect(unknownField.status).toBe(400);
      expect(unknownField.body.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const badVariable = await gql('query($n: Int) { sites(first: $n) { nodes { id } } }', { n: 'many' });
      expect(badVariable.status).toBe(400);
      expect(badVariable.body.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    });
  });

  describe('limits', () => {
    it('refuses a query nested deeper than the limit, before running it', async () => {
      // Build -> site -> builds -> nodes -> site -> …: depth grows by three per round.
      let selection = 'id';
      for (let round = 0; round < 4; round++) selection = `site { builds(first: 1) { nodes { ${selection} } } }`;
      const res = await gql(`{ build(siteId: "${siteId}", id: "${buildId}") { ${selection} } }`);
      expect(res.status).toBe(400);
      expect(res.body.data).toBeNull();
      expect(res.body.errors).toEqual([
        {
          message: 'query depth 14 exceeds the limit of 10',
          locations: expect.any(Array),
          extensions: { code: 'QUERY_TOO_DEEP', details: [] },
        },
      ]);
      // Two rounds (depth 8) pass.
      const shallow = await gql(
        `{ build(siteId: "${siteId}", id: "${buildId}") { site { builds { nodes { site { builds { nodes { id } } } } } } } }`,
      );
      expect(shallow.body.errors).toBeUndefined();
    });

    it('does not count introspection in depth, so tools can read the schema', async () => {
      const res = await gql(
        '{ __schema { types { name fields { name type { kind ofType { kind ofType { kind ofType { kind ofType { name } } } } } } } } }',
      );
      expect(res.status).toBe(200);
      expect(res.body.data.__schema.types.map((t: { name: string }) => t.name)).toContain('Site');
    });

    it('answers aliased by-id lookups together, and refuses more than 30 aliases before running any', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      const ids = Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? unknown : siteId));
      const res = await gql(`{ ${ids.map((id, i) => `a${i}: site(id: "${id}") { id }`).join(' ')} }`);
      expect(res.status).toBe(200);
      for (const [i, id] of ids.entries())
        expect(res.body.data[`a${i}`], `a${i}`).toEqual(id === siteId ? { id: siteId } : null);
      expect(res.body.errors?.map((e) => e.extensions.code)).toEqual(Array(10).fill('SITE_NOT_FOUND'));
      const tooMany = await gql(
        `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: site(id: "${siteId}") { id }`).join(' ')} }`,
      );
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    });

    it('refuses a query whose cost (items times fields) exceeds the limit, counting variables', async () => {
      const nested = 'query($n: Int) { sites(first: $n) { nodes { id urls(first: $n) { nodes { loc lastmod } } } } }';
      const costly = await gql(nested, { n: 1000 });
      expect(costly.status).toBe(400);
      expect(costly.body.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
      expect(costly.body.errors?.[0]?.message).toMatch(/^query cost \d+ exceeds the limit of 50000/);
      const cheap = await gql(nested, { n: 5 });
      expect(cheap.status).toBe(200);
      expect(cheap.body.errors).toBeUndefined();
      // A full page of URLs with every field is allowed.
      const page = await gql(
        `{ urls(siteId: "${siteId}", first: 1000) { edges { cursor node { ${URL_FIELDS} } } pageInfo { hasNextPage } } }`,
      );
      expect(page.body.errors).toBeUndefined();
    });
  });
});
