// The `sitemaps` command line: commander wiring, --json, and one place where errors become
// messages and exit codes (cli-context.ts: EXIT).
import { Command, CommanderError } from 'commander';
import type { CliEnv } from '@sitemaps/config';
import { CliContext, EXIT, failure, type Io } from './cli-context';
import { buildCommand } from './commands/build.command';
import { loginCommand } from './commands/login.command';
import { sitesCommand } from './commands/sites.command';
import { exclusionsCommand } from './commands/exclusions.command';
import { urlsCommand } from './commands/urls.command';
import { validateCommand } from './commands/validate.command';

export async function runCli(argv: string[], env: CliEnv, io: Io): Promise<number> {
  const ctx = new CliContext(env, io);
  const program = new Command('sitemaps')
    .description('The sitemap platform from the command line: sites, URL imports, builds, validation.')
    .option('--json', 'print results as JSON on stdout (progress and errors stay on stderr)')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .hook('preAction', (command) => {
      ctx.json = Boolean(command.optsWithGlobals().json);
    });
  const context = () => ctx;
  loginCommand(program, context);
  sitesCommand(program, context);
  urlsCommand(program, context);
  exclusionsCommand(program, context);
  buildCommand(program, context);
  validateCommand(program, context);
  for (const command of program.commands)
    command
      .exitOverride()
      .configureOutput({ writeOut: (t) => io.stdout.write(t), writeErr: (t) => io.stderr.write(t) });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const { exitCode, code, message, details } = failure(error);
    if (ctx.json)
      io.stdout.write(
        `${JSON.stringify({ error: { code, message: message.split('\n')[0], details: details ?? [] } }, null, 2)}\n`,
      );
    io.stderr.write(`sitemaps: ${message}\n`);
    return exitCode;
  }
}
