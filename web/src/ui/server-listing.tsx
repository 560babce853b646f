import { keepPreviousData, useQuery, type QueryKey } from "@tanstack/react-query";
import { getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from "@tanstack/react-table";
import { useState, type ReactNode } from "react";
import type { MessageDescriptor } from "react-intl";
import type { Listing } from "../api/client";
import { QueryState } from "./query-state";
import { DataTable, Pager } from "./data-table";

const PAGE_SIZE = 20;

/** Polar's sorting parameter for a table's order: a field, with a minus for descending. */
const sortingParameter = ([sort]: SortingState, fallback: string) => (sort ? `${sort.desc ? "-" : ""}${sort.id}` : fallback);

/** Which page of a list the server is asked for: its order in Polar's words, from page 1. */
export interface PageRequest {
  sorting: string;
  page: number;
  limit: number;
}

/**
 * A list the server sorts and pages, shown in a table: `key` names the query (with the filters that
 * change it, which send the reader back to the first page), `load` fetches one page.
 */
export function useServerListing<Row>({ key, load, columns, initialSorting }: { key: QueryKey; load: (page: PageRequest) => Promise<Listing<Row>>; columns: ColumnDef<Row, never>[]; initialSorting: SortingState }) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const [pageOf, setPageOf] = useState({ key: JSON.stringify(key), page: 0 });
  // A change of filters starts again from the first page.
  const page = pageOf.key === JSON.stringify(key) ? pageOf.page : 0;
  const request: PageRequest = { sorting: sortingParameter(sorting, sortingParameter(initialSorting, "-created_at")), page: page + 1, limit: PAGE_SIZE };
  const query = useQuery({ queryKey: [...key, request], queryFn: () => load(request), placeholderData: keepPreviousData });
  const table = useReactTable({
    data: query.data?.items ?? [],
    columns,
    state: { sorting },
    manualSorting: true,
    onSortingChange: (updater) => {
      setPageOf({ key: JSON.stringify(key), page: 0 });
      setSorting(typeof updater === "function" ? updater(sorting) : updater);
    },
    getCoreRowModel: getCoreRowModel(),
  });
  return {
    table,
    query,
    page,
    pages: Math.max(1, query.data?.pagination.max_page ?? 1),
    total: query.data?.pagination.total_count ?? 0,
    setPage: (next: number) => setPageOf({ key: JSON.stringify(key), page: next }),
  };
}

/** What a server listing shows: its failure in words, a placeholder while it loads, an empty state, or the table and its pager. */
export function ServerListing<Row>({ listing, loading, empty }: { listing: ReturnType<typeof useServerListing<Row>>; loading: MessageDescriptor; empty: ReactNode }) {
  const { query, table, total, page, pages, setPage } = listing;
  return (
    <QueryState query={query} loading={loading} isEmpty={() => total === 0} empty={empty}>
      {() => (
        <>
          <DataTable table={table} busy={query.isFetching} />
          <Pager page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </QueryState>
  );
}
