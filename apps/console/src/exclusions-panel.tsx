import { useEffect, useState, type FormEvent } from 'react';
import { fieldErrors, unwrap, type Schemas } from './api';
import { DataTable } from './data-table';
import { useSession } from './session';
import { ErrorNote, Field, formatNumber } from './ui';

type Rule = Schemas['ExclusionRule'];

const ruleText = (rule: Rule) =>
  rule.kind === 'prefix'
    ? `prefix:${rule.path}`
    : rule.kind === 'glob'
      ? `glob:${rule.pattern}`
      : `query:${rule.param}`;

/** One rule a line, `kind:value`; a line the console cannot read is sent as an invalid rule, for the API to name. */
function parseRules(text: string): Rule[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const colon = line.indexOf(':');
      const kind = colon < 0 ? '' : line.slice(0, colon);
      const value = line.slice(colon + 1);
      if (kind === 'query') return { kind, param: value };
      if (kind === 'glob') return { kind, pattern: value };
      return { kind: 'prefix', path: kind === 'prefix' ? value : line };
    });
}

/** The site's exclusion rules with what each excludes, and the launch check (GET …/conflicts). */
export function ExclusionsPanel({ site }: { site: Schemas['Site'] }) {
  const { api } = useSession();
  const [view, setView] = useState<Schemas['Exclusions'] | null>(null);
  const [draft, setDraft] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Schemas['ConflictReport'] | null>(null);

  useEffect(() => {
    unwrap(api.GET('/v1/sites/{siteId}/exclusions', { params: { path: { siteId: site.id } } })).then((loaded) => {
      setView(loaded);
      setDraft(loaded.rules.map((entry) => ruleText(entry.rule)).join('\n'));
    }, setError);
  }, [api, site.id]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setNote(null);
    try {
      const changed = await unwrap(
        api.PUT('/v1/sites/{siteId}/exclusions', {
          params: { path: { siteId: site.id } },
          body: { rules: parseRules(draft) },
        }),
      );
      setView(changed);
      setErrors({});
      setError(null);
      setNote(
        `Saved: ${formatNumber(changed.changed.urls)} URLs changed, ${formatNumber(changed.changed.shards)} sitemap files to rebuild.`,
      );
    } catch (e) {
      const byField = fieldErrors(e);
      setErrors(byField);
      setError(Object.keys(byField).length > 0 ? null : e);
    } finally {
      setBusy(false);
    }
  }

  async function check() {
    setBusy(true);
    try {
      setReport(
        await unwrap(
          api.GET('/v1/sites/{siteId}/conflicts', { params: { path: { siteId: site.id }, query: { limit: 100 } } }),
        ),
      );
      setError(null);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  const ruleErrors = Object.entries(errors)
    .filter(([field]) => field.startsWith('rules'))
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');
  return (
    <>
      <ErrorNote error={error} />
      <form className="settings" onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label="Exclusion rules"
          error={ruleErrors || undefined}
          hint="One a line: prefix:/cart/, glob:/*?sessionid=* (the whole path and query), query:sessionid. Excluded URLs stay stored, out of every sitemap file and hreflang link."
        >
          {(ids) => (
            // Editable once the stored rules are in: what is typed before would be overwritten by them.
            <textarea
              {...ids}
              rows={6}
              spellCheck={false}
              disabled={view === null}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy || view === null}>
          Save rules
        </button>
        {note && <p role="status">{note}</p>}
      </form>
      {view && (
        <DataTable
          caption={`What the rules exclude now (${formatNumber(view.flaggedUrls)} more URLs are flagged excluded)`}
          rows={view.rules}
          rowKey={(entry) => ruleText(entry.rule)}
          columns={[
            { header: 'Rule', cell: (entry) => ruleText(entry.rule), className: 'break' },
            { header: 'URLs excluded', cell: (entry) => formatNumber(entry.excludedUrls), numeric: true },
          ]}
        />
      )}
      <h2>Launch check</h2>
      <h2>Launch check</h2>
      <p className="muted">
        Every URL against this site&apos;s robots.txt (as Googlebot reads it), its exclusions and the clock.
      </p>
      <button type="button" onClick={() => void check()} disabled={busy}>
        Check the URLs
      </button>
      {report && (
        <>
          <p role="status">
            {formatNumber(report.checkedUrls)} URLs checked: {formatNumber(report.total)} conflicts
            {report.truncated ? ' (the first 100 listed)' : ''}.
          </p>
          {report.conflicts.length > 0 && (
            <DataTable
              caption="Conflicts"
              rows={report.conflicts}
              rowKey={(conflict) => `${conflict.loc} ${conflict.code} ${conflict.field}`}
              columns={[
                { header: 'URL', cell: (conflict) => conflict.loc, className: 'break' },
                { header: 'Code', cell: (conflict) => conflict.code },
                { header: 'What', cell: (conflict) => `${conflict.field}: ${conflict.message}` },
              ]}
            />
          )}
        </>
      )}
    </>
  );
}
