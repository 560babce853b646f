import { pageOf, type Knex } from "@tollgate/kit";
import { jsonbArray } from "../db/arrays.js";

/** What a file is for: the seller's uploads, or (`order_document`) an invoice Tollgate made, which no list of files shows. */
export type FileService = "downloadable" | "product_media" | "organization_avatar" | "order_document";

/** A part of an upload, as the uploader declared it: bytes `chunk_start`…`chunk_end`, inclusive. */
export interface UploadPart {
  number: number;
  chunk_start: number;
  chunk_end: number;
  checksum_sha256_base64: string | null;
}

export interface FileRow {
  id: string;
  organization_id: string;
  service: FileService;
  name: string;
  path: string;
  mime_type: string;
  size: number;
  version: string | null;
  checksum_sha256_base64: string | null;
  checksum_sha256_hex: string | null;
  checksum_etag: string | null;
  storage_version: string | null;
  upload_parts: UploadPart[];
  upload_id: string | null;
  is_uploaded: boolean;
  last_modified_at: Date | null;
  created_at: Date;
  modified_at: Date | null;
  deleted_at: Date | null;
}

export const files = (db: Knex) => db<FileRow>("files").whereNull("deleted_at");

export const findFile = (db: Knex, id: string) => files(db).where({ id }).first();

/** The organization's uploaded downloadable files among `ids`. */
export const findDownloadableFiles = (db: Knex, organizationId: string, ids: string[]) =>
  files(db).where({ organization_id: organizationId, service: "downloadable", is_uploaded: true }).whereIn("id", ids);

/** The ids among `ids` of the organization's uploaded product images. */
export const productImageIds = async (db: Knex, organizationId: string, ids: string[]) =>
  (await files(db).where({ organization_id: organizationId, service: "product_media", is_uploaded: true }).whereIn("id", ids).select("id")).map((row) => row.id);

export async function insertFile(db: Knex, file: Omit<FileRow, "created_at" | "modified_at" | "deleted_at" | "is_uploaded" | "last_modified_at" | "checksum_sha256_hex" | "checksum_etag" | "storage_version">): Promise<FileRow> {
  const [row] = await db<FileRow>("files")
    .insert({ ...file, upload_parts: jsonbArray(db, file.upload_parts) })
    .returning("*");
  if (!row) throw new Error("insert into files returned no row");
  return row;
}

export async function updateFile(
  db: Knex,
  id: string,
  changes: Partial<Pick<FileRow, "name" | "version" | "upload_id" | "is_uploaded" | "checksum_sha256_base64" | "checksum_sha256_hex" | "checksum_etag" | "last_modified_at" | "deleted_at">>,
): Promise<FileRow | undefined> {
  const [row] = await db<FileRow>("files")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  return row;
}

/** The uploaded files of the organizations given (of those among `organization_id`, or with the `ids` given), newest first. */
export function pageOfFiles(db: Knex, filter: { organizationIds: string[]; organization_id?: string[]; ids?: string[] }, page: { page: number; limit: number }) {
  const found = files(db).where({ is_uploaded: true }).whereNot("service", "order_document").whereIn("organization_id", filter.organizationIds);
  if (filter.organization_id) void found.whereIn("organization_id", filter.organization_id);
  if (filter.ids) void found.whereIn("id", filter.ids);
  return pageOf<FileRow, "created_at">(found, { ...page, sort: [{ property: "created_at", descending: true }], columns: { created_at: "created_at" }, table: "files" });
}

/** The uploaded files among those with the ids given. */
export const uploadedFilesWithIds = (db: Knex, ids: string[]) => files(db).whereIn("id", ids).where({ is_uploaded: true });
