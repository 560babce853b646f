/** How many rows an export reads at a time: what it holds in memory at most. */
export const EXPORT_BATCH = 500;

/** Where a batch ended: rows are read in creation order, then by id, so the next batch starts after it. */
export interface BatchPosition {
  created_at: Date;
  id: string;
}

/**
 * Every row `read` finds, a batch of `size` at a time, each read after where the last ended (its
 * position, not an offset, so the last batch costs what the first did): an export of any length
 * holds one batch at most.
 */
export async function* inBatches<Row extends BatchPosition>(read: (after: BatchPosition | null, limit: number) => Promise<Row[]>, size: number): AsyncGenerator<Row[]> {
  let after: BatchPosition | null = null;
  for (;;) {
    const batch = await read(after, size);
    if (batch.length > 0) yield batch;
    if (batch.length < size) return;
    after = batch.at(-1) ?? null;
  }
}
