// Secrets from files, as Docker and Kubernetes secrets mount them: `ADMIN_API_KEY_FILE=/run/secrets/admin`
// stands for ADMIN_API_KEY with that file's content (one trailing newline dropped). Only the
// variables the schema marks secret may come from a file, so a value is never read from a path by
// accident.

/** The suffix that names a file holding a secret variable's value. */
export const FILE_SUFFIX = '_FILE';

/**
 * The environment with each `<NAME>_FILE` of a secret replaced by `<NAME>` set to the file's
 * content. Setting both to different values is an error, as is an unreadable or empty file.
 */
export function withSecretFiles(
  env: Record<string, string | undefined>,
  secrets: readonly string[],
  read: (file: string) => string,
): Record<string, string | undefined> {
  const resolved = { ...env };
  for (const name of secrets) {
    const file = env[`${name}${FILE_SUFFIX}`];
    if (!file) continue;
    let value: string;
    try {
      value = read(file).replace(/\r?\n$/, '');
    } catch (error) {
      throw new SecretFileError(`${name}${FILE_SUFFIX}: cannot read ${file}: ${(error as Error).message}`);
    }
    if (!value) throw new SecretFileError(`${name}${FILE_SUFFIX}: ${file} is empty`);
    const direct = env[name];
    if (direct && direct !== value)
      throw new SecretFileError(`${name} and ${name}${FILE_SUFFIX} are both set, to different values: set one`);
    resolved[name] = value;
    delete resolved[`${name}${FILE_SUFFIX}`];
  }
  return resolved;
}

export class SecretFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretFileError';
  }
}
