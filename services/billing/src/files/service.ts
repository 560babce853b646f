import { createHash } from "node:crypto";
import type { z } from "zod";
import { invalidField, randomId, type Knex } from "@tollgate/kit";
import { insertFile, updateFile, type FileRow } from "./files.sql.js";
import { fileUploadJson } from "./output.js";
import type { FileCreate, UploadPartDeclared } from "./schemas.js";
import { UploadMismatch, type CompletedPart } from "./storage.js";
import type { Parts } from "../parts.js";

// The reads the routes make, as the store has them: a file by id, a page of them.
export { findFile, pageOfFiles, type FileRow } from "./files.sql.js";


/** The parts must be numbered 1…n and cover the file's bytes exactly, in order, none but the last too small for the store. */
function partsProblem(parts: z.output<typeof UploadPartDeclared>[], size: number, minimumPartSize: number): string | null {
  const ordered = [...parts].sort((a, b) => a.number - b.number);
  let next = 0;
  for (const [index, declared] of ordered.entries()) {
    if (declared.number !== index + 1) return "Parts must be numbered from 1 without gaps";
    if (declared.chunk_start !== next || declared.chunk_end < declared.chunk_start) return `Part ${declared.number} must start at byte ${next}`;
    if (index < ordered.length - 1 && declared.chunk_end - declared.chunk_start + 1 < minimumPartSize) return `Part ${declared.number} is smaller than the ${minimumPartSize} bytes every part but the last must have`;
    next = declared.chunk_end + 1;
  }
  return next === size ? null : `The parts cover ${next} bytes, not the file's ${size}`;
}

/**
 * Starts an upload: the file is recorded, not yet uploaded, and the store hands out where each
 * declared part goes, for a while.
 */
export async function startUpload(parts: Pick<Parts, "db" | "storage" | "config">, organizationId: string, body: z.output<typeof FileCreate>) {
  const { db, storage, config } = parts;
  if (body.size > config.FILE_MAX_SIZE) throw invalidField(["size"], `Files may be at most ${config.FILE_MAX_SIZE} bytes`, body.size);
  const problem = partsProblem(body.upload.parts, body.size, storage.minimumPartSize);
  if (problem) throw invalidField(["upload", "parts"], problem);
  const id = randomId(32);
  const upload = {
    id,
    organization_id: organizationId,
    // The store's key is made of ids alone: the name is whatever the uploader wrote (`../../x.html`),
    // kept only as the file's name and the name it downloads under.
    path: `${organizationId}/${id}`,
    name: body.name,
    mime_type: body.mime_type,
    upload_parts: body.upload.parts.map((declared) => ({ ...declared, checksum_sha256_base64: declared.checksum_sha256_base64 ?? null })),
  };
  const expiresAt = new Date(Date.now() + config.FILE_UPLOAD_URL_TTL_SECONDS * 1000);
  const started = await storage.startUpload(upload, expiresAt);
  const created = await insertFile(db, {
    ...upload,
    service: body.service,
    size: body.size,
    version: body.version ?? null,
    checksum_sha256_base64: body.checksum_sha256_base64 ?? null,
    upload_id: started.uploadId,
  });
  return fileUploadJson(
    created,
    config.PUBLIC_URL,
    created.upload_parts.map((declared) => {
      const target = started.parts.get(declared.number);
      if (!target) throw new Error(`the store gave no URL for part ${declared.number}`);
      return { ...declared, ...target, expires_at: expiresAt };
    }),
  );
}

/** Completes an upload once the store has every part as declared; completing it again changes nothing. */
export async function completeUpload(parts: Pick<Parts, "db" | "storage" | "config">, existing: FileRow, upload: { id: string; path: string; parts: CompletedPart[] }): Promise<FileRow> {
  if (existing.is_uploaded) return existing;
  if (upload.id !== existing.id || upload.path !== existing.path) throw invalidField(["id"], "This is not the upload of this file", upload.id);
  try {
    const stored = await parts.storage.complete(existing, upload.parts);
    const updated = await updateFile(parts.db, existing.id, {
      is_uploaded: true,
      checksum_sha256_base64: stored.sha256Base64,
      checksum_sha256_hex: stored.sha256Hex,
      checksum_etag: stored.etag,
      last_modified_at: new Date(),
    });
    return updated ?? existing;
  } catch (error) {
    if (error instanceof UploadMismatch) throw invalidField(error.part === undefined ? ["parts"] : ["parts", error.part - 1], error.message);
    throw error;
  }
}

/** A deleted file is gone from lists at once, and from the store after. */
export async function deleteFile(parts: Pick<Parts, "db" | "storage" | "config">, existing: FileRow): Promise<void> {
  await updateFile(parts.db, existing.id, { deleted_at: new Date() });
  await parts.storage.remove(existing);
}

/** A new name (an empty one keeps the old) or version (null clears it); the file as it now is. */
export async function changeFile(db: Knex, file: FileRow, changes: { name?: string | null; version?: string | null }): Promise<FileRow> {
  const updated = await updateFile(db, file.id, { ...(changes.name ? { name: changes.name } : {}), ...(changes.version !== undefined ? { version: changes.version } : {}) });
  return updated ?? file;
}

/**
 * Keeps a file Tollgate made for the seller (an invoice) in the file store, where the seller's own
 * files are, recorded as an `order_document` that no list of files shows. Written before it is
 * recorded, so a row always has its bytes.
 */
export async function storeDocument({ db, storage }: Pick<Parts, "db" | "storage">, organizationId: string, name: string, bytes: Buffer): Promise<FileRow> {
  const id = randomId(32);
  const sha256 = createHash("sha256").update(bytes).digest();
  const fields = { id, organization_id: organizationId, path: `${organizationId}/${id}`, name, mime_type: "application/pdf", upload_parts: [], service: "order_document" as const, size: bytes.length, version: null, checksum_sha256_base64: sha256.toString("base64"), upload_id: null };
  await storage.write({ ...fields, is_uploaded: true, checksum_sha256_hex: null, checksum_etag: null, storage_version: null, last_modified_at: null, created_at: new Date(), modified_at: null, deleted_at: null }, bytes);
  const inserted = await insertFile(db, fields);
  return (await updateFile(db, inserted.id, { is_uploaded: true, checksum_sha256_hex: sha256.toString("hex"), last_modified_at: new Date() })) ?? inserted;
}
