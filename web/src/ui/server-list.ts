import { useQuery } from "@tanstack/react-query";
import { getCoreRowModel, useReactTable, type SortingState, type TableOptions } from "@tanstack/react-table";
import { useState } from "react";
import type { ApiResult, Listing } from "../api/client";

/** How a list asks the server for one of its pages: Polar's sorting (a field, a minus for descending), page from 1, and size. */
export interface ServerPaging {
  sorting: string;
  page: number;
  limit: number;
}

const PAGE_SIZE = 20;

/** Polar's sorting parameter for the table's order. */
const sortingParameter = ([sort]: SortingState, fallback: string) => (sort ? `${sort.desc ? "-" : ""}${sort.id}` : fallback);

/**
 * A table of rows the server sorts and pages: the page asked for, the answer (kept on screen while
 * the next loads), and the TanStack table over it. A new sort starts again from the first page; so
 * should a new filter (call `setPage(0)`, or give the table a new `key`).
 */
export function useServerList<Row>({
  queryKey,
  list,
  columns,
  initialSorting,
}: {
  queryKey: readonly unknown[];
  list: (paging: ServerPaging) => Promise<ApiResult<Listing<Row>>>;
  columns: TableOptions<Row>["columns"];
  initialSorting: SortingState;
}) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const [page, setPage] = useState(0);
  const paging: ServerPaging = { sorting: sortingParameter(sorting, "-created_at"), page: page + 1, limit: PAGE_SIZE };
  const query = useQuery({ queryKey: [...queryKey, paging], queryFn: () => list(paging), placeholderData: (previous) => previous });
  const table = useReactTable({
    data: query.data?.data?.items ?? [],
    columns,
    state: { sorting },
    manualSorting: true,
    onSortingChange: (updater) => {
      setPage(0);
      setSorting(typeof updater === "function" ? updater(sorting) : updater);
    },
    getCoreRowModel: getCoreRowModel(),
  });
  const total = query.data?.data?.pagination.total_count ?? 0;
  const pages = Math.max(1, query.data?.data?.pagination.max_page ?? 1);
  return { query, table, total, page, pages, setPage };
}
