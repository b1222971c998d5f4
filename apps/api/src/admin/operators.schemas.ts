import { z } from 'zod';
import { PLATFORM_ROLES, type PlatformRole } from '@sitemaps/domain';

const platformRole = z.enum(PLATFORM_ROLES as unknown as [PlatformRole, ...PlatformRole[]]);

export const setPlatformRoleInput = z
  .object({
    email: z.string().min(1).max(254).describe('an existing person (they accepted an invitation first)'),
    platformRole: platformRole.nullable().describe('operator; null withdraws it'),
  })
  .strict();

export const platformPersonView = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  platformRole: platformRole.nullable(),
});

export const platformPeopleView = z.object({ items: z.array(platformPersonView) });
