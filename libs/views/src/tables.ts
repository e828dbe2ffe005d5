import { type SafeHtml, html } from './html.js';
import { type FieldBase, inputField, selectField, type Option } from './forms.js';

export interface Column<T> {
  header: string;
  cell: (row: T) => SafeHtml | string | number;
  numeric?: boolean;
  /** The name of the sort by this column (`?sort=name`, `?sort=-name` reversed), when it sorts. */
  sort?: string;
}

/** How a list is sorted now, and the URL of the list sorted another way (its filters kept, from its first page). */
export interface TableSorting {
  /** `name`, `-name`, or `''` for the list's default order. */
  current: string;
  url: (sort: string) => string;
}

export interface TableInput<T> {
  /** Names the table for screen readers; visually hidden unless `showCaption`. */
  caption: string;
  showCaption?: boolean;
  columns: Column<T>[];
  rows: readonly T[];
  /** What an empty list says: what to do next ("No clients yet. Create one…"). */
  empty: SafeHtml | string;
  /** Sortable columns link their header to the list sorted by them. */
  sorting?: TableSorting;
}

/**
 * A column header that sorts: a link to the list sorted by it (again: reversed), and `aria-sort`
 * on the column the list is sorted by now.
 */
function header<T>(column: Column<T>, sorting: TableSorting | undefined): SafeHtml {
  const cls = column.numeric ? 'numeric' : '';
  if (!sorting || !column.sort) return html`<th scope="col" class="${cls}">${column.header}</th>`;
  const current = sorting.current === column.sort ? 'ascending' : sorting.current === `-${column.sort}` ? 'descending' : null;
  const next = current === 'ascending' ? `-${column.sort}` : column.sort;
  const arrow = current === 'ascending' ? '▲' : current === 'descending' ? '▼' : '';
  const hint = current === 'ascending' ? 'sorted A to Z; sort Z to A' : current === 'descending' ? 'sorted Z to A; sort A to Z' : 'sort by this column';
  return html`<th scope="col" class="${cls} sortable" aria-sort="${current ?? 'none'}">
    <a href="${sorting.url(next)}">${column.header}<span class="visually-hidden"> (${hint})</span>${arrow ? html` <span aria-hidden="true">${arrow}</span>` : ''}</a>
  </th>`;
}

/** A table; on narrow screens each row becomes a card whose cells name their column. */
export function table<T>(input: TableInput<T>): SafeHtml {
  if (!input.rows.length) return html`<p class="empty">${input.empty}</p>`;
  return html`<table>
    <caption class="${input.showCaption ? '' : 'visually-hidden'}">${input.caption}</caption>
    <thead>
      <tr>
        ${input.columns.map((c) => header(c, input.sorting))}
      </tr>
    </thead>
    <tbody>
      ${input.rows.map(
        (row) =>
          html`<tr>
            ${input.columns.map(
              (c) => html`<td data-label="${c.header}" class="${c.numeric ? 'numeric' : ''}">${c.cell(row)}</td>`,
            )}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

type Query = Readonly<Record<string, string | undefined>>;

/** A list URL with its filters (empty ones dropped), so a filtered list can be bookmarked and shared. */
export function listUrl(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export interface PagerInput {
  path: string;
  /** The filters of the list, kept on every page. */
  filters: Query;
  /** Cursor of the page before this one (`''` for the first page), `undefined` when on the first page. */
  newer?: string;
  /** Cursor of the page after this one, `null`/`undefined` on the last page. */
  older?: string | null;
  /** Query parameter names of the two cursors. */
  newerParam?: string;
  olderParam?: string;
  /** The links' words when the list runs oldest first (a queue): `{ newer: 'Older', older: 'Newer' }`-like. */
  labels?: { newer: string; older: string };
}

/**
 * "Newer" / "Older" links of a cursor-paged list (keyset paging: the last page is as fast as the
 * first). The filters stay in both URLs.
 */
export function pager(input: PagerInput): SafeHtml {
  const newerParam = input.newerParam ?? 'before';
  const olderParam = input.olderParam ?? 'after';
  const link = (label: string, query: Query, rel: string) =>
    html`<a href="${listUrl(input.path, { ...input.filters, ...query })}" rel="${rel}">${label}</a>`;
  if (input.newer === undefined && !input.older) return html``;
  return html`<nav class="pager" aria-label="Pages">
    <span>${input.newer !== undefined ? link(`← ${input.labels?.newer ?? 'Newer'}`, { [newerParam]: input.newer || undefined }, 'prev') : ''}</span>
    <span>${input.older ? link(`${input.labels?.older ?? 'Older'} →`, { [olderParam]: input.older }, 'next') : ''}</span>
  </nav>`;
}

export type FilterField =
  | ({ kind: 'text'; value?: string } & FieldBase)
  | ({ kind: 'select'; options: Option[]; value?: string } & FieldBase);

/** A GET form of list filters: submitting it puts them in the URL. */
export function filterForm(input: { action: string; fields: FilterField[]; submit?: string; keep?: Query }): SafeHtml {
  const kept = Object.entries(input.keep ?? {}).filter(([, value]) => value);
  return html`<form method="get" action="${input.action}" class="filters" role="search">
    ${kept.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
    ${input.fields.map((field) =>
      field.kind === 'select' ? selectField(field) : inputField({ ...field, type: 'search', verbatim: true }),
    )}
    <div><button type="submit" class="secondary">${input.submit ?? 'Filter'}</button></div>
  </form>`;
}
