// argon2id through hash-wasm (WebAssembly: no native binding, so the production install, which
// leaves out optional packages, has it on every platform), with OWASP's first recommended
// configuration: 19 MiB, 2 passes, 1 lane. Hashes are PHC strings (`$argon2id$v=19$m=19456,…`),
// the format every argon2 library reads. A hash costs ~70 ms of CPU: it runs in a worker thread,
// so the API's event loop keeps answering everyone else meanwhile.
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';

const PARAMETERS = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;

/** The thread's whole program: one hash or verification per message, answered by id. */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { argon2id, argon2Verify } = require(workerData.hashWasm);
parentPort.on('message', ({ id, op, args }) => {
  (op === 'hash' ? argon2id(args) : argon2Verify(args)).then(
    (result) => parentPort.postMessage({ id, result }),
    (error) => parentPort.postMessage({ id, error: String((error && error.message) || error) }),
  );
});`;

type Answer = { id: number; result?: string | boolean; error?: string };

export class PasswordHasher {
  /** Verified against when the email is unknown, so both answers take as long. */
  private decoy: Promise<string> | undefined;
  private thread: Worker | undefined;
  private readonly pending = new Map<number, (answer: Answer) => void>();
  private nextId = 0;

  hash(password: string): Promise<string> {
    const args = { ...PARAMETERS, password, salt: randomBytes(16), outputType: 'encoded' };
    return this.run('hash', args) as Promise<string>;
  }

  async verify(passwordHash: string | undefined, password: string): Promise<boolean> {
    if (passwordHash === undefined) {
      this.decoy ??= this.hash('decoy password, never matches');
      await this.check(await this.decoy, password);
      return false;
    }
    return this.check(passwordHash, password);
  }

  private async check(hash: string, password: string): Promise<boolean> {
    return (await this.run('verify', { password, hash }).catch(() => false)) === true;
  }

  private run(op: 'hash' | 'verify', args: object): Promise<string | boolean> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, ({ result, error }) =>
        error === undefined ? resolve(result as string | boolean) : reject(new Error(error)),
      );
      this.started().postMessage({ id, op, args });
    });
  }

  private started(): Worker {
    if (this.thread) return this.thread;
    const hashWasm = require.resolve('hash-wasm');
    const thread = new Worker(THREAD_SOURCE, { eval: true, workerData: { hashWasm } });
    // Idle, it must not keep the process alive.
    thread.unref();
    thread.on('message', (answer: Answer) => {
      this.pending.get(answer.id)?.(answer);
      this.pending.delete(answer.id);
    });
    // A thread that dies fails what it held; the next call starts another.
    const fail = (error: Error) => {
      this.thread = undefined;
      for (const settle of this.pending.values()) settle({ id: -1, error: error.message });
      this.pending.clear();
    };
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`password thread exited (${code})`)));
    this.thread = thread;
    return thread;
  }
}
