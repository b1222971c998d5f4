// argon2id through @node-rs/argon2 (prebuilt binaries in npm packages, no install script), with its
// defaults: 19 MiB, 2 passes, 1 lane — OWASP's first recommended configuration.
import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2's `Algorithm.Argon2id`, an ambient const enum that isolated modules cannot read. */
const ARGON2ID = 2;

export class PasswordHasher {
  /** Verified against when the email is unknown, so both answers take as long. */
  private decoy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: ARGON2ID });
  }

  async verify(passwordHash: string | undefined, password: string): Promise<boolean> {
    if (passwordHash === undefined) {
      this.decoy ??= this.hash('decoy password, never matches');
      await verify(await this.decoy, password).catch(() => false);
      return false;
    }
    return verify(passwordHash, password).catch(() => false);
  }
}
