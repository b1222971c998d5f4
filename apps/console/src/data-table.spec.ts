// DataTable's markup, rendered to HTML as the browser gets it: what screen readers and the
// console's tests rely on (caption naming the table and its scroll region, column headers, the
// class names of numeric and long-text cells, the empty state, the current row).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataTableProps } from './data-table';

interface Row {
  id: string;
  loc: string;
  count: number;
}
const ROWS: Row[] = [
  { id: 'a', loc: 'https://a.example/', count: 1200 },
  { id: 'b', loc: 'https://b.example/', count: 3 },
];

function render(props: Partial<DataTableProps<Row>>): string {
  return renderToStaticMarkup(
    createElement(DataTable<Row>, {
      caption: 'Pages',
      rows: ROWS,
      rowKey: (row) => row.id,
      columns: [
        { header: 'Page', cell: (row) => row.loc, className: 'break' },
        { header: 'Count', cell: (row) => row.count, numeric: true },
      ],
      ...props,
    }),
  );
}

describe('DataTable', () => {
  it('names the table and its focusable scroll region by the caption', () => {
    const html = render({});
    const id = /<caption id="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<div class="table-wrap" role="region" aria-labelledby="${id}" tabindex="0"><table>`);
    expect(html).toContain('>Pages</caption>');
  });

  it('writes column headers with scope="col" and numeric columns as num, header and cells', () => {
    const html = render({});
    expect(html).toContain('<th scope="col">Page</th><th scope="col" class="num">Count</th>');
    expect(html).toContain('<td class="break">https://a.example/</td><td class="num">1200</td>');
    expect(html.match(/<tr>/g)).toHaveLength(3);
  });

  it('hides the caption visually only when asked', () => {
    expect(render({ hideCaption: true })).toMatch(/<caption id="[^"]+" class="visually-hidden">Pages<\/caption>/);
  });

  it('leaves out a column given as false', () => {
    const html = render({
      columns: [{ header: 'Page', cell: (row) => row.loc }, false, { header: 'Id', cell: (row) => row.id }],
    });
    expect(html).toContain('<th scope="col">Page</th><th scope="col">Id</th></tr>');
  });

  it('shows the empty state instead of a table when there is no row, headers alone without one', () => {
    expect(render({ rows: [], empty: createElement('p', null, 'No pages yet.') })).toBe('<p>No pages yet.</p>');
    expect(render({ rows: [] })).toContain('<tbody></tbody>');
  });

  it('marks the current row', () => {
    const html = render({ isCurrent: (row) => row.id === 'b' });
    expect(html).toContain('<tr aria-current="true"><td class="break">https://b.example/</td>');
    expect(html.match(/aria-current/g)).toHaveLength(1);
  });
});
