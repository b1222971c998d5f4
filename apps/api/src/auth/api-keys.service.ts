import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { ApiKeyRepository } from '@sitemaps/data';
import { DomainError, notFound } from '@sitemaps/domain';
import { CONFIG } from '@sitemaps/core';
import {
  createdKey,
  createdKeyOf,
  decodeCursor,
  pageOf,
  uuidKey,
  type Page,
  type PageRequest,
} from '../common/pagination';
import type { ApiKeyView } from '../tenants/tenant.schemas';
import type { Principal, Scope } from './principal';

const KEY_PREFIX = 'smk_';
export const TENANT_SUSPENDED = 'TENANT_SUSPENDED';

/** What a key is known by without being secret: shown in key lists, and what failures are counted by. */
export function keyPrefix(key: string): string {
  return key.slice(0, 12);
}

export function hashKey(key: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(key).digest());
}

/** Keys are random, stored only as sha256; the plain key is returned once, at creation. */
@Injectable()
export class ApiKeysService {
  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeyRepository,
  ) {}

  async authenticate(key: string | undefined): Promise<Principal> {
    if (!key)
      throw new DomainError('unauthenticated', 'UNAUTHENTICATED', 'missing API key: send Authorization: Bearer <key>');
    const admin = this.config.api.adminApiKey;
    if (admin && key.length === admin.length && timingSafeEqual(Buffer.from(key), Buffer.from(admin)))
      return { kind: 'platform' };
    const found = await this.keys.findByHash(hashKey(key));
    if (!found || found.revokedAt)
      throw new DomainError('unauthenticated', 'UNAUTHENTICATED', 'invalid or revoked API key');
    // Read on every request, so a suspension (and a resumption) applies to the very next one.
    if (found.tenantSuspended)
      throw new DomainError('unauthenticated', TENANT_SUSPENDED, 'this account is suspended by the platform operator');
    return { kind: 'tenant', tenantId: found.tenantId, keyId: found.id, scopes: found.scopes as Scope[] };
  }

  async create(tenantId: string, name: string, scopes: Scope[]): Promise<ApiKeyView & { key: string }> {
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.keys.create({ tenantId, name, scopes, prefix: keyPrefix(key), hash: hashKey(key) });
    return { ...present(row), key };
  }

  /** Oldest first, revoked ones included (with revokedAt). */
  async list(tenantId: string, page: PageRequest): Promise<Page<ApiKeyView>> {
    const after = decodeCursor(page.after, createdKey);
    const rows = await this.keys.listForTenant(tenantId, { after, limit: page.first + 1 });
    return pageOf(rows, page.first, createdKeyOf, present);
  }

  async get(tenantId: string, id: string): Promise<ApiKeyView> {
    const row = uuidKey.safeParse(id).success ? await this.keys.findForTenant(tenantId, id) : null;
    if (!row) throw notFound('api key', id);
    return present(row);
  }

  async revoke(tenantId: string, id: string): Promise<void> {
    if (!uuidKey.safeParse(id).success) throw notFound('api key', id);
    if (!(await this.keys.revoke(tenantId, id))) throw notFound('api key', id);
  }
}

function present(row: {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  revokedAt: Date | null;
}): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as Scope[],
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  };
}
