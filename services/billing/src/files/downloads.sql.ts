import type { Knex } from "@tollgate/kit";

/** One customer's downloads of one file through one benefit. */
export interface FileDownloadRow {
  benefit_id: string;
  file_id: string;
  customer_id: string;
  downloads: number;
  last_downloaded_at: Date;
}

/** How a file was downloaded through a benefit: times in all, and by how many customers. */
export interface DownloadStats {
  downloads: number;
  downloaders: number;
}

/** Counts one download of a file, by a customer, through a benefit. */
export async function countDownload(db: Knex, download: Pick<FileDownloadRow, "benefit_id" | "file_id" | "customer_id">, at: Date): Promise<void> {
  await db<FileDownloadRow>("file_downloads")
    .insert({ ...download, downloads: 1, last_downloaded_at: at })
    .onConflict(["benefit_id", "file_id", "customer_id"])
    .merge({ downloads: db.raw("file_downloads.downloads + 1"), last_downloaded_at: at });
}

/** How each of the files given was downloaded through the benefit, by file id; a file never downloaded is absent. */
export async function downloadStatsOf(db: Knex, benefitId: string, fileIds: string[]): Promise<Map<string, DownloadStats>> {
  const rows = await db<FileDownloadRow>("file_downloads")
    .where({ benefit_id: benefitId })
    .whereIn("file_id", fileIds)
    .groupBy("file_id")
    .select<{ file_id: string; downloads: number; downloaders: number }[]>("file_id", db.raw("sum(downloads)::int as downloads"), db.raw("count(*)::int as downloaders"));
  return new Map(rows.map(({ file_id, downloads, downloaders }) => [file_id, { downloads, downloaders }]));
}
