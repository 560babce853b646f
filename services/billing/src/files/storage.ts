import type { FileRow, UploadPart } from "./files.sql.js";
import type { Readable } from "node:stream";

/** What a completed upload turned out to be. */
export interface StoredFile {
  sha256Base64: string;
  sha256Hex: string;
  etag: string;
}

/** A part the uploader says it sent, with the ETag it was given back. */
export interface CompletedPart {
  number: number;
  checksum_etag: string;
  checksum_sha256_base64: string | null;
}

/**
 * Where uploaded files live. The local disk is the default; an S3-compatible store would implement
 * the same (pre-signed part URLs, multipart completion) without the routes knowing.
 */
export interface FileStorage {
  /** Where the uploader sends one part, with the headers it must send, until `expiresAt`. */
  partUploadUrl(file: FileRow, part: UploadPart, expiresAt: Date): { url: string; headers: Record<string, string> };
  /** Joins the uploaded parts into the file, checking every part and the whole against what was declared. */
  complete(file: FileRow, parts: CompletedPart[]): Promise<StoredFile>;
  read(file: FileRow): Readable;
  remove(file: FileRow): Promise<void>;
}

/** A declared part or whole did not arrive as declared; the message says which. */
export class UploadMismatch extends Error {
  constructor(
    message: string,
    readonly part?: number,
  ) {
    super(message);
    this.name = "UploadMismatch";
  }
}
