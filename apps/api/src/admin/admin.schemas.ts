import { z } from 'zod';
import { VERIFICATION_STATUSES, type VerificationStatus } from '@sitemaps/domain';
import { cursorQuery } from '../common/pagination';

export const tenantView = z.object({
  id: z.uuid(),
  name: z.string(),
  maxSites: z.number().int().nullable(),
  maxUrls: z.number().int().nullable(),
  suspendedAt: z
    .date()
    .nullable()
    .describe('set while suspended: its keys answer 401 TENANT_SUSPENDED, its sites are not served, no builds run'),
  suspendedReason: z.string().nullable(),
  createdAt: z.date(),
  siteCount: z.number().int(),
});
export type TenantView = z.output<typeof tenantView>;

export const tenantListQuery = cursorQuery.extend({
  suspended: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('only suspended (true) or active (false) tenants'),
});

export const updateTenantInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    maxSites: z.number().int().min(0).nullable().optional().describe('quota; null: unlimited'),
    maxUrls: z
      .number()
      .int()
      .min(0)
      .nullable()
      .optional()
      .describe('quota of live URLs across all sites; null: unlimited'),
  })
  .strict();

export const suspendTenantInput = z.object({ reason: z.string().trim().min(1).max(1_000).optional() }).strict();

export const hostnameQuery = z.object({
  hostname: z.string().min(1).max(253).describe('any spelling: it is normalised as a site hostname is'),
});

export const hostnameClaimView = z.object({
  siteId: z.uuid(),
  tenantId: z.uuid(),
  tenantName: z.string(),
  hostname: z.string(),
  status: z.enum(VERIFICATION_STATUSES as [VerificationStatus, ...VerificationStatus[]]),
  verifiedAt: z.date().nullable(),
  createdAt: z.date(),
});
export const hostnameClaimsView = z.object({
  hostname: z.string(),
  items: z.array(hostnameClaimView).describe('the verified site first, then claims oldest first'),
});

export const auditQuery = cursorQuery.extend({
  targetId: z.string().max(100).optional().describe("one object's entries, e.g. a tenant id"),
});

export const auditEntryView = z.object({
  id: z.string(),
  actor: z.string().describe('platform: the ADMIN_API_KEY'),
  actorIp: z.string().nullable(),
  action: z.string().describe('tenant.create, tenant.update, tenant.suspend, tenant.resume, tenant.delete'),
  targetType: z.string(),
  targetId: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.date(),
});
export type AuditEntryView = z.output<typeof auditEntryView>;
