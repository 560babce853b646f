import { once } from "node:events";
import type { Response } from "express";

/** What a CSV cell holds; nothing (null) is an empty cell. */
export type CsvValue = string | number | boolean | null | undefined;

/**
 * Text a spreadsheet would read as a formula (OWASP's CSV injection): it starts with =, +, -, @, a
 * tab or a carriage return. Such text is written after a quote mark, so it shows as the text it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell as CSV writes it: quoted when it holds a quote, comma or line break; a formula-like text neutralised. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of cells, written together; read from the database (asynchronously) or from what is already worked out. */
type CsvBatch = readonly (readonly CsvValue[])[];

/** One line of CSV, ended as RFC 4180 ends lines. */
export const csvLine = (cells: readonly CsvValue[]): string => `${cells.map(csvCell).join(",")}\r\n`;

/**
 * Sends a CSV file as an attachment: the header line, then each batch of rows as it is read, waiting
 * whenever the client reads slower than the rows come, so no more than a batch is ever held. A client
 * that goes away stops the reading.
 */
export async function sendCsv(res: Response, filename: string, header: readonly string[], batches: AsyncIterable<CsvBatch> | Iterable<CsvBatch>): Promise<void> {
  res.status(200).setHeader("content-type", "text/csv; charset=utf-8").setHeader("content-disposition", `attachment; filename="${filename}"`);
  // Resolves when the client is gone (or the connection failed): nothing more is read for it.
  const gone = once(res, "close").catch(() => undefined);
  const write = async (chunk: string): Promise<boolean> => {
    if (res.write(chunk)) return true;
    await Promise.race([once(res, "drain"), gone]);
    return !res.destroyed;
  };
  if (!(await write(csvLine(header)))) return;
  for await (const rows of batches) {
    if (rows.length > 0 && !(await write(rows.map(csvLine).join("")))) return;
  }
  res.end();
}
