import { parseExpression } from 'cron-parser';
import { invalid } from '../domain.errors';

/** Five-field cron (minute precision); rebuilding more often than every 5 minutes is refused. */
export function validateRebuildCron(expression: string): string {
  const trimmed = expression.trim().replace(/\s+/g, ' ');
  const fail = (message: string) => invalid('INVALID_CRON', message, [{ field: 'rebuildCron', message }]);
  if (trimmed.split(' ').length !== 5) throw fail('expected five fields: minute hour day-of-month month day-of-week');
  let first: Date;
  let second: Date;
  try {
    const runs = parseExpression(trimmed, { tz: 'UTC', currentDate: new Date('2026-01-05T00:00:00Z') });
    first = runs.next().toDate();
    second = runs.next().toDate();
  } catch (error) {
    throw fail(`not a cron expression: ${(error as Error).message}`);
  }
  if (second.getTime() - first.getTime() < 5 * 60_000) throw fail('scheduled rebuilds may run at most every 5 minutes');
  return trimmed;
}
