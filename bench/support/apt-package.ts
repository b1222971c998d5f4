// Benchmark peers and load generators that are Debian packages (nginx, wrk): found on PATH, or
// installed with apt-get when this user may (root or password-less sudo), else null with the
// command to run printed, so a benchmark can skip or fall back instead of failing.
import { spawnSync } from 'node:child_process';
import { childProcessEnv } from '@sitemaps/config';

/** The first candidate that runs with `versionArgs`, or null. */
export function findBinary(candidates: string[], versionArgs: string[]): string | null {
  for (const candidate of candidates) {
    // wrk prints its usage and exits 1 for -v: that it ran at all is what counts.
    if (!spawnSync(candidate, versionArgs, { stdio: 'ignore' }).error) return candidate;
  }
  return null;
}

/** `apt-get install -y <pkg>` (after `apt-get update` if the first try fails); true on success. */
export function aptInstall(pkg: string): boolean {
  const root = process.getuid?.() === 0;
  const sudo = !root && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (!root && !sudo) {
    console.log(
      `${pkg} is not installed and this user cannot install it: run \`sudo apt-get install -y ${pkg}\` and rerun.`,
    );
    return false;
  }
  console.log(`${pkg} is not installed: apt-get install -y ${pkg}`);
  const ok =
    apt(sudo, ['install', '-y', '-q', pkg]) || (apt(sudo, ['update', '-q']) && apt(sudo, ['install', '-y', '-q', pkg]));
  if (!ok) console.log(`apt-get could not install ${pkg}: install it (\`apt-get install -y ${pkg}\`) and rerun.`);
  return ok;
}

function apt(sudo: boolean, args: string[]): boolean {
  const env = childProcessEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  const argv = sudo ? ['sudo', '-n', '-E', 'apt-get', ...args] : ['apt-get', ...args];
  return spawnSync(argv[0] ?? '', argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
}
