import { useState, type FormEvent } from 'react';
import { fieldErrors, unwrap, type Schemas } from './api';
import { CHANGEFREQS, type Changefreq } from './enums';
import { useSession } from './session';
import { ErrorNote, Field } from './ui';

/** The form's state: text as typed, turned into the API's types on submit; the server validates. */
interface Draft {
  robotsTxt: string;
  robotsTxtNonStandard: boolean;
  defaultChangefreq: string;
  defaultPriority: string;
  rebuildCron: string;
  cacheMaxAge: string;
  textSitemap: boolean;
  xslStylesheet: boolean;
}

function draftOf(site: Schemas['Site']): Draft {
  return {
    robotsTxt: site.robotsTxt ?? '',
    robotsTxtNonStandard: false,
    defaultChangefreq: site.defaultChangefreq ?? '',
    defaultPriority: site.defaultPriority === null ? '' : String(site.defaultPriority),
    rebuildCron: site.rebuildCron ?? '',
    cacheMaxAge: String(site.cacheMaxAge),
    textSitemap: site.textSitemap,
    xslStylesheet: site.xslStylesheet,
  };
}

export function SettingsPanel({ site, onSaved }: { site: Schemas['Site']; onSaved(site: Schemas['Site']): void }) {
  const { api } = useSession();
  const [draft, setDraft] = useState(() => draftOf(site));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setSaved(false);
    setDraft((d) => ({ ...d, [key]: value }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setSaved(false);
    try {
      const body: Schemas['SiteUpdate'] = {
        robotsTxt: draft.robotsTxt.trim() === '' ? null : draft.robotsTxt,
        robotsTxtNonStandard: draft.robotsTxtNonStandard,
        defaultChangefreq: draft.defaultChangefreq === '' ? null : (draft.defaultChangefreq as Changefreq),
        defaultPriority: draft.defaultPriority.trim() === '' ? null : Number(draft.defaultPriority),
        rebuildCron: draft.rebuildCron.trim() === '' ? null : draft.rebuildCron.trim(),
        cacheMaxAge: Number(draft.cacheMaxAge),
        textSitemap: draft.textSitemap,
        xslStylesheet: draft.xslStylesheet,
      };
      const updated = await unwrap(api.PATCH('/v1/sites/{siteId}', { params: { path: { siteId: site.id } }, body }));
      setErrors({});
      setError(null);
      setSaved(true);
      onSaved(updated);
    } catch (e) {
      const byField = fieldErrors(e);
      setErrors(byField);
      // Errors no field of this form shows are shown above the button.
      const shown = new Set(Object.keys(draft));
      setError(Object.keys(byField).some((field) => shown.has(field)) ? null : e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <form className="settings" onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label="robots.txt rules"
          error={errors.robotsTxt}
          hint="Your own rules; the platform appends its Sitemap: lines."
        >
          {(ids) => (
            <textarea
              {...ids}
              rows={8}
              spellCheck={false}
              value={draft.robotsTxt}
              onChange={(e) => set('robotsTxt', e.target.value)}
            />
          )}
        </Field>
        <div className="check">
          <input
            id="robots-non-standard"
            type="checkbox"
            checked={draft.robotsTxtNonStandard}
            onChange={(e) => set('robotsTxtNonStandard', e.target.checked)}
          />
          <label htmlFor="robots-non-standard">Allow lines only some engines read (Host:, Clean-param:)</label>
        </div>
        <div className="grid">
          <Field label="Default change frequency" error={errors.defaultChangefreq}>
            {(ids) => (
              <select
                {...ids}
                value={draft.defaultChangefreq}
                onChange={(e) => set('defaultChangefreq', e.target.value)}
              >
                <option value="">none</option>
                {CHANGEFREQS.map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Default priority" error={errors.defaultPriority} hint="0.0 to 1.0; empty for none">
            {(ids) => (
              <input
                {...ids}
                inputMode="decimal"
                value={draft.defaultPriority}
                onChange={(e) => set('defaultPriority', e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Scheduled full rebuild (cron, UTC)"
            error={errors.rebuildCron}
            hint="5 fields, e.g. 0 3 * * *; empty for none"
          >
            {(ids) => (
              <input
                {...ids}
                spellCheck={false}
                value={draft.rebuildCron}
                onChange={(e) => set('rebuildCron', e.target.value)}
              />
            )}
          </Field>
          <Field label="Cache max-age (seconds)" error={errors.cacheMaxAge}>
            {(ids) => (
              <input
                {...ids}
                inputMode="numeric"
                value={draft.cacheMaxAge}
                onChange={(e) => set('cacheMaxAge', e.target.value)}
              />
            )}
          </Field>
        </div>
        <div className="check">
          <input
            id="text-sitemap"
            type="checkbox"
            checked={draft.textSitemap}
            onChange={(e) => set('textSitemap', e.target.checked)}
          />
          <label htmlFor="text-sitemap">Also publish text sitemaps (/sitemap.txt, one per 50,000 URLs)</label>
        </div>
        <div className="check">
          <input
            id="xsl-stylesheet"
            type="checkbox"
            checked={draft.xslStylesheet}
            onChange={(e) => set('xslStylesheet', e.target.checked)}
          />
          <label htmlFor="xsl-stylesheet">Readable in a browser (XSL stylesheet on the sitemap files)</label>
        </div>
        <ErrorNote error={error} />
        <div className="actions">
          <button type="submit" disabled={busy}>
            Save settings
          </button>
          {saved && <span role="status">Saved.</span>}
          {Object.keys(errors).length > 0 && (
            <span role="alert" className="field-error">
              Not saved: correct the fields marked below their input.
            </span>
          )}
        </div>
      </form>
      <DeleteSite site={site} />
    </>
  );
}

/** Deleting a site takes its URLs and files with it: the hostname is typed to confirm. */
function DeleteSite({ site }: { site: Schemas['Site'] }) {
  const { api, canWrite } = useSession();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await unwrap(api.DELETE('/v1/sites/{siteId}', { params: { path: { siteId: site.id } } }));
      window.location.hash = '#/sites';
    } catch (e) {
      setError(e);
    }
  }

  if (!canWrite) return null;
  return (
    <form className="card" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="delete-site-heading">
      <h2 id="delete-site-heading">Delete this site</h2>
      <p className="muted">Its URLs, builds and published files go with it; the public server stops serving it.</p>
      <Field label={`Type ${site.hostname} to confirm`}>
        {(ids) => <input {...ids} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />}
      </Field>
      <button type="submit" className="danger" disabled={typed !== site.hostname}>
        Delete site
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
