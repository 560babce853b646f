import type { CsvValue, Knex } from "@tollgate/kit";
import { EXPORT_BATCH, inBatches } from "../db/batches.js";
import { customersToExport, type CustomerRow } from "./customers.sql.js";

/** Polar's customer export: its columns, always all of them. */
export const CUSTOMER_EXPORT_HEADER = [
  "ID",
  "External ID",
  "Created At",
  "Email",
  "Name",
  "Tax ID",
  "Billing Address Line 1",
  "Billing Address Line 2",
  "Billing Address City",
  "Billing Address State",
  "Billing Address Zip",
  "Billing Address Country",
  "Metadata",
] as const;


/** One customer's cells: the address spread over its columns, the metadata as JSON (empty when there is none). */
export function customerExportRow(customer: CustomerRow): CsvValue[] {
  const address = customer.billing_address;
  return [
    customer.id,
    customer.external_id,
    customer.created_at.toISOString(),
    customer.email,
    customer.name,
    customer.tax_id,
    address?.line1 ?? null,
    address?.line2 ?? null,
    address?.city ?? null,
    address?.state ?? null,
    address?.postal_code ?? null,
    address?.country ?? null,
    Object.keys(customer.metadata).length > 0 ? JSON.stringify(customer.metadata) : null,
  ];
}

/** The export's rows, a batch (`batchSize` customers) at a time, oldest first. */
export async function* customerExportRows(db: Knex, organizationIds: string[], organizationId: string[] | undefined, batchSize = EXPORT_BATCH): AsyncGenerator<CsvValue[][]> {
  for await (const batch of inBatches((after, limit) => customersToExport(db, organizationIds, organizationId, after, limit), batchSize)) yield batch.map(customerExportRow);
}
