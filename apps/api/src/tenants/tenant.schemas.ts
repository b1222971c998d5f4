import { z } from 'zod';
import { SCOPES, type Scope } from '../auth/principal';

export const scopeEnum = z.enum(SCOPES as [Scope, ...Scope[]]).meta({ id: 'Scope' });

export const createTenantInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    maxSites: z.number().int().min(0).nullable().optional().describe('quota; null or absent: unlimited'),
    maxUrls: z
      .number()
      .int()
      .min(0)
      .nullable()
      .optional()
      .describe('quota of live URLs across all sites; null or absent: unlimited'),
  })
  .meta({ id: 'TenantCreate' });
export const createApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    scopes: z
      .array(scopeEnum)
      .min(1)
      .refine((scopes) => new Set(scopes).size === scopes.length, 'name each scope once')
      .default(['read', 'write'])
      .describe('admin implies write and read; write implies read'),
  })
  .meta({ id: 'ApiKeyCreate' });

export const createdTenantView = z
  .object({
    id: z.uuid(),
    name: z.string(),
    apiKey: z.string().describe('its first key (admin scope); shown only here'),
  })
  .meta({ id: 'TenantCreated' });
export const apiKeyView = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().describe('first characters of the key, to recognise it'),
    scopes: z.array(scopeEnum),
    createdAt: z.date(),
    revokedAt: z.date().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyView = z.output<typeof apiKeyView>;
export const createdApiKeyView = apiKeyView
  .extend({ apiKey: z.string().describe('the key; shown only here, stored as a hash') })
  .meta({ id: 'ApiKeyCreated' });
