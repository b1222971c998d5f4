import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Public } from '../auth/api-key.guard';
import { buildOpenApiDocument } from './openapi.document';
import { generateOpenApiDocument } from './openapi.generate';

const ROOT = path.resolve(__dirname, '../../../..');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

describe('the OpenAPI document', () => {
  let document: OpenAPIObject;
  let dir: string;
  const operations = () =>
    Object.entries(document.paths).flatMap(([route, item]) =>
      METHODS.flatMap((method) => (item[method] ? [{ route, method, operation: item[method] }] : [])),
    );

  beforeAll(async () => {
    document = await generateOpenApiDocument();
    dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("passes Redocly's recommended rules with no error and no warning", () => {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const lint = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--extends=recommended', '--format=json', file],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(lint.status).toBe(0);
  });

  it('names operations <resource>.<method>, each with a summary, a tag and errors in the one error shape', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(['sites.create', 'sites.list', 'urls.upsert', 'builds.get', 'tenants.createKey']),
    );
    expect(new Set(ids).size).toBe(ids.length);
    for (const { route, method, operation } of operations()) {
      expect(operation.operationId, `${method} ${route}`).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
      expect(operation.summary, `${method} ${route}`).toMatch(/^[A-Z]/);
      expect(operation.tags?.length, `${method} ${route}`).toBeGreaterThan(0);
      const errors = Object.entries(operation.responses).filter(([status]) => Number(status) >= 400);
      expect(errors.length, `${method} ${route}`).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        expect(
          (response as { content: Record<string, { schema: unknown }> }).content['application/json']?.schema,
          `${method} ${route} ${status}`,
        ).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
  });

  it('asks for an opaque bearer key on every route, listing 401 and 429', () => {
    expect(document.components?.securitySchemes?.bearer).toEqual({
      type: 'http',
      scheme: 'bearer',
      description: expect.stringContaining('Opaque'),
    });
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/v1/sites']?.get?.security).toBeUndefined();
    expect(document.paths['/v1/sites']?.get?.responses).toMatchObject({
      401: expect.anything(),
      429: expect.anything(),
    });
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });

  it('gives a route added without any OpenAPI decorator the same conventions, and a @Public() one no bearer requirement', async () => {
    @Controller('v1/probes')
    class ProbesController {
      @Get('open')
      @Public()
      openDoor() {
        return {};
      }

      @Post()
      createProbe() {
        return {};
      }
    }
    @Module({ controllers: [ProbesController] })
    class ProbesModule {}
    const app = await NestFactory.create(ProbesModule, new FastifyAdapter(), { preview: true, logger: false });
    const probes = buildOpenApiDocument(app);
    await app.close();
    const open = probes.paths['/v1/probes/open']?.get;
    expect(open).toMatchObject({
      operationId: 'probes.openDoor',
      summary: 'Open door',
      tags: ['probes'],
      security: [],
    });
    expect(Object.keys(open?.responses ?? {}).sort()).toEqual(['200', '400', '500']);
    expect(open).not.toHaveProperty('x-public');
    const create = probes.paths['/v1/probes']?.post;
    expect(create).toMatchObject({ operationId: 'probes.createProbe', summary: 'Create probe', tags: ['probes'] });
    expect(create?.security).toBeUndefined();
    expect(Object.keys(create?.responses ?? {}).sort()).toEqual(['201', '400', '401', '403', '429', '500']);
  });

  it('types the URL entry from the validator’s zod schemas, as named components', () => {
    const schemas = document.components?.schemas as Record<
      string,
      { properties?: Record<string, unknown>; required?: string[] }
    >;
    expect(schemas.UrlEntry?.properties).toMatchObject({
      loc: { type: 'string', minLength: 12, maxLength: 2047 },
      changefreq: { enum: ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'] },
      alternates: { type: 'array', items: { $ref: '#/components/schemas/Alternate' } },
      images: { type: 'array', items: { $ref: '#/components/schemas/Image' } },
      videos: { type: 'array', items: { $ref: '#/components/schemas/Video' } },
      news: { $ref: '#/components/schemas/News' },
    });
    expect(schemas.Video?.required).toEqual(['thumbnailLoc', 'title', 'description']);
    expect(schemas.Video?.properties?.duration).toMatchObject({ type: 'integer', minimum: 1, maximum: 28_800 });
    expect(schemas.News?.required).toEqual(['publicationName', 'publicationLanguage', 'publicationDate', 'title']);
    const put = document.paths['/v1/sites/{siteId}/urls']?.put;
    expect(
      (put?.requestBody as { content: Record<string, { schema: unknown }> }).content['application/json']?.schema,
    ).toEqual({
      type: 'array',
      maxItems: 10_000,
      items: { $ref: '#/components/schemas/UrlEntry' },
    });
    expect(put?.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/UrlUpsertResult' } } },
    });
    expect(document.paths['/v1/sites']?.get?.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/SitePage' } } },
    });
  });

  it('documents uploads as files of their content types', () => {
    const upload = document.paths['/v1/sites/{siteId}/urls/import']?.post?.requestBody as {
      content: Record<string, { schema: unknown }>;
    };
    expect(Object.keys(upload.content)).toEqual(['application/x-ndjson', 'text/csv', 'application/gzip']);
    expect(upload.content['text/csv']?.schema).toEqual({ type: 'string', format: 'binary' });
  });
});
