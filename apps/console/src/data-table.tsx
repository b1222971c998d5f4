// The console's one table: a caption (shown, or read by screen readers only), column headers
// with scope="col", one row per item, and what to say when there are none. The scroll box
// (.table-wrap) is a named, focusable region, so a keyboard can scroll a table wider than the
// screen; the markup and class names are the ones every page used before.
import { useId, type ReactNode } from 'react';

export interface Column<T> {
  header: ReactNode;
  cell(row: T): ReactNode;
  /** A number: right-aligned, tabular figures (class `num` on the header and each cell). */
  numeric?: boolean;
  /** Classes of each cell: `break` for long URLs, `row-actions` for a row's buttons. */
  className?: string;
}

export interface DataTableProps<T> {
  caption: ReactNode;
  /** The caption for screen readers only, where the heading above already says it. */
  hideCaption?: boolean;
  /** `false` leaves a column out (one the reader may not use, for example). */
  columns: readonly (Column<T> | false)[];
  rows: readonly T[];
  rowKey(row: T, index: number): string;
  /** Shown instead of the table when there is no row; without it an empty table is shown, headers only. */
  empty?: ReactNode;
  /** Marks a row as the current one (aria-current, highlighted by the stylesheet). */
  isCurrent?(row: T): boolean;
}

export function DataTable<T>(props: DataTableProps<T>) {
  const captionId = useId();
  const columns = props.columns.filter((column): column is Column<T> => column !== false);
  if (props.rows.length === 0 && props.empty !== undefined) return <>{props.empty}</>;
  const classOf = (column: Column<T>) =>
    [column.numeric ? 'num' : '', column.className ?? ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="table-wrap" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table>
        <caption id={captionId} className={props.hideCaption ? 'visually-hidden' : undefined}>
          {props.caption}
        </caption>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col" className={column.numeric ? 'num' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, index) => (
            <tr key={props.rowKey(row, index)} aria-current={props.isCurrent?.(row) ? 'true' : undefined}>
              {columns.map((column, i) => (
                <td key={i} className={classOf(column)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
