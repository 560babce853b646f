import { flexRender, type Table } from "@tanstack/react-table";
import { useLayoutEffect, useRef } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { Button } from "./components";

const messages = defineMessages({
  pages: { id: "ui.pager.label", defaultMessage: "Pages" },
  previous: { id: "ui.pager.previous", defaultMessage: "Previous" },
  pageOf: defineMessage<{ page: number; pages: number }>({ id: "ui.pager.pageOf", defaultMessage: "Page {page, number} of {pages, number}" }),
  next: { id: "ui.pager.next", defaultMessage: "Next" },
});

// A cell of a short text (a date, an amount, a status, an invoice number) stays on one line:
// "November 27" and "$39.20" read as one thing. Longer texts (names, descriptions) wrap between words.
const SHORT_TEXT = 24;

/**
 * Marks the short cells once rendered: a column's cell renders whatever its screen gives (a string, a
 * link, a badge), so only the text it shows says how long it is.
 */
function useShortCells() {
  const body = useRef<HTMLTableSectionElement>(null);
  useLayoutEffect(() => {
    for (const cell of body.current?.querySelectorAll("td") ?? []) {
      cell.classList.toggle("nowrap", (cell.querySelector(".cell-value")?.textContent ?? "").trim().length <= SHORT_TEXT);
    }
  });
  return body;
}

/**
 * A table of rows the server sorted and paged: a header that asks for another order when the column
 * allows it (and says the current one to screen readers), busy while the next page loads. On a
 * phone each row is a card of "heading: value" lines (styles.css), the heading repeated in each cell.
 */
export function DataTable<Row>({ table, busy }: { table: Table<Row>; busy: boolean }) {
  const body = useShortCells();
  return (
    <div className="table-wrap">
      <table className="data-table" aria-busy={busy || undefined}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th key={header.id} aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}>
                    {header.column.getCanSort() ? (
                      <button type="button" className="sort" onClick={header.column.getToggleSortingHandler()}>
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        <span aria-hidden="true">{sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}</span>
                      </button>
                    ) : (
                      flexRender(header.column.columnDef.header, header.getContext())
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody ref={body}>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => {
                const content = flexRender(cell.column.columnDef.cell, cell.getContext());
                const header = table.getFlatHeaders().find((candidate) => candidate.column.id === cell.column.id);
                return (
                  <td key={cell.id}>
                    {header && <span className="cell-label">{flexRender(header.column.columnDef.header, header.getContext())}</span>}
                    <span className="cell-value">{content}</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Previous and next through a list the server pages; `page` counts from 0. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { formatMessage } = useIntl();
  return (
    <nav className="pager" aria-label={formatMessage(messages.pages)}>
      <Button variant="secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>
        {formatMessage(messages.previous)}
      </Button>
      <span>{formatMessage(messages.pageOf, { page: page + 1, pages })}</span>
      <Button variant="secondary" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        {formatMessage(messages.next)}
      </Button>
    </nav>
  );
}
