// argon2id through hash-wasm (WebAssembly: no native binding, so the production install, which
// leaves out optional packages, has it on every platform), with OWASP's first recommended
// configuration: 19 MiB, 2 passes, 1 lane. Hashes are PHC strings (`$argon2id$v=19$m=19456,…`),
// the format every argon2 library reads.
import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

const PARAMETERS = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;

export class PasswordHasher {
  /** Verified against when the email is unknown, so both answers take as long. */
  private decoy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2id({ ...PARAMETERS, password, salt: randomBytes(16), outputType: 'encoded' });
  }

  async verify(passwordHash: string | undefined, password: string): Promise<boolean> {
    if (passwordHash === undefined) {
      this.decoy ??= this.hash('decoy password, never matches');
      await argon2Verify({ password, hash: await this.decoy }).catch(() => false);
      return false;
    }
    return argon2Verify({ password, hash: passwordHash }).catch(() => false);
  }
}
