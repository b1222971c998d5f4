// Small pieces every page uses: cursor pagination, errors, labelled fields, formats.
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { messageOf } from './api';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * One page of a cursor-paginated list at a time: never the whole list (a site may hold a million
 * URLs). Keeps the cursors of the pages before, for "Previous".
 */
export function useCursorPages<T>(load: (cursor: string | undefined) => Promise<Page<T>>, deps: unknown[]) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<Page<T> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const cursor = cursors[cursors.length - 1];
  const loadRef = useRef(load);
  loadRef.current = load;

  // A new query starts again at the first page. `deps` is the caller's list, checked at each call
  // site (eslint.config.mjs names useCursorPages to react-hooks/exhaustive-deps).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps, checked where they are written
  useEffect(() => setCursors([undefined]), deps);
  useEffect(() => {
    let live = true;
    setLoading(true);
    loadRef
      .current(cursor)
      .then((result) => live && (setPage(result), setError(null)))
      .catch((e: unknown) => live && setError(e))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps, checked where they are written
  }, [cursor, tick, ...deps]);

  return {
    page,
    error,
    loading,
    pageNumber: cursors.length,
    hasPrevious: cursors.length > 1,
    hasNext: Boolean(page?.nextCursor),
    next: () => page?.nextCursor && setCursors((list) => [...list, page.nextCursor ?? undefined]),
    previous: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    reload: useCallback(() => setTick((n) => n + 1), []),
  };
}

export function Pager(props: {
  label: string;
  pageNumber: number;
  hasPrevious: boolean;
  hasNext: boolean;
  previous(): void;
  next(): void;
}) {
  if (!props.hasPrevious && !props.hasNext) return null;
  return (
    <nav className="pager" aria-label={`${props.label} pages`}>
      <button type="button" onClick={props.previous} disabled={!props.hasPrevious}>
        Previous
      </button>
      <span aria-live="polite">Page {props.pageNumber}</span>
      <button type="button" onClick={props.next} disabled={!props.hasNext}>
        Next
      </button>
    </nav>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {messageOf(error)}
    </p>
  );
}

/** A labelled input with its error announced and tied to it (aria-describedby). */
export function Field(props: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (ids: FieldIds) => ReactNode;
}) {
  const id = useId();
  const ids: FieldIds = {
    id,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby':
      [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined,
  };
  return (
    <div className={props.error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      {props.children(ids)}
      {props.hint && (
        <small id={`${id}-hint`} className="hint">
          {props.hint}
        </small>
      )}
      {props.error && (
        <small id={`${id}-error`} className="field-error">
          {props.error}
        </small>
      )}
    </div>
  );
}

export interface FieldIds {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export const formatNumber = (n: number) => n.toLocaleString('en-US');

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }) + ' UTC';
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}
