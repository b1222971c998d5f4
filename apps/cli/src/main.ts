import { loadCliEnv } from '@sitemaps/config';
import { runCli } from './cli.program';

runCli(process.argv.slice(2), loadCliEnv(), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
