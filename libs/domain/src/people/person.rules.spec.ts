import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain.errors';
import {
  assertKeepsAnOwner,
  assertMayManage,
  checkPassword,
  normaliseEmail,
  parsePlatformRole,
  scopesOfRole,
} from './person.rules';

const codeOf = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? error.code : 'other';
  }
  return null;
};

describe('person rules', () => {
  it('maps roles onto the API key scopes', () => {
    expect(scopesOfRole('owner')).toEqual(['admin', 'write', 'read']);
    expect(scopesOfRole('admin')).toEqual(['admin', 'write', 'read']);
    expect(scopesOfRole('editor')).toEqual(['write', 'read']);
    expect(scopesOfRole('viewer')).toEqual(['read']);
  });

  it('compares emails trimmed and lowercase, refusing what is not one', () => {
    expect(normaliseEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(codeOf(() => normaliseEmail('ada'))).toBe('EMAIL_INVALID');
    expect(codeOf(() => normaliseEmail('a b@example.com'))).toBe('EMAIL_INVALID');
  });

  it('wants passwords of 10 to 256 characters, nothing else', () => {
    expect(codeOf(() => checkPassword('short'))).toBe('PASSWORD_TOO_WEAK');
    expect(codeOf(() => checkPassword('x'.repeat(257)))).toBe('PASSWORD_TOO_WEAK');
    expect(codeOf(() => checkPassword('correct horse'))).toBeNull();
  });

  it('lets owners manage everyone, admins all but owners, and nobody else', () => {
    expect(codeOf(() => assertMayManage({ role: 'owner' }, 'owner'))).toBeNull();
    expect(codeOf(() => assertMayManage({ role: 'admin' }, 'editor'))).toBeNull();
    expect(codeOf(() => assertMayManage({ role: 'admin' }, 'owner'))).toBe('INSUFFICIENT_ROLE');
    expect(codeOf(() => assertMayManage({ key: true }, 'owner'))).toBe('INSUFFICIENT_ROLE');
    expect(codeOf(() => assertMayManage({ role: 'editor' }, 'viewer'))).toBe('INSUFFICIENT_ROLE');
    expect(codeOf(() => assertMayManage({ role: 'viewer' }, 'viewer'))).toBe('INSUFFICIENT_ROLE');
    expect(codeOf(() => assertMayManage({ platform: true }, 'owner'))).toBeNull();
  });

  it('keeps a tenant with at least one owner', () => {
    expect(codeOf(() => assertKeepsAnOwner(0))).toBe('LAST_OWNER');
    expect(codeOf(() => assertKeepsAnOwner(1))).toBeNull();
  });

  it('knows one platform role, operator; anything else stored is a bug', () => {
    expect(parsePlatformRole('operator')).toBe('operator');
    expect(parsePlatformRole(null)).toBeNull();
    expect(() => parsePlatformRole('owner')).toThrow(/unknown platform role/);
  });
});
