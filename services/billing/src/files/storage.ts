import type { FileRow } from "./files.sql.js";
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

/** What a store needs to know of a file before it exists. */
export type NewUpload = Pick<FileRow, "id" | "organization_id" | "path" | "name" | "mime_type" | "upload_parts">;

/** Where the uploader sends one part, with the headers it must send. */
export interface PartTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * Where uploaded files live: the local disk by default, or an S3-compatible bucket. Either way the
 * uploader sends parts straight to pre-signed URLs and then reports them, so the routes never know which.
 */
export interface FileStorage {
  /** The smallest a part other than the last may be (S3 refuses smaller ones when joining them). */
  readonly minimumPartSize: number;
  /**
   * Opens an upload of the declared parts, each URL working until `expiresAt`. `uploadId` is the
   * store's own handle for the upload, kept with the file until it is completed.
   */
  startUpload(file: NewUpload, expiresAt: Date): Promise<{ uploadId: string | null; parts: Map<number, PartTarget> }>;
  /** Joins the uploaded parts into the file, checking every part and the whole against what was declared. */
  complete(file: FileRow, parts: CompletedPart[]): Promise<StoredFile>;
  /** Stores a whole file Tollgate made itself (an invoice), in one piece. */
  write(file: FileRow, bytes: Buffer): Promise<void>;
  read(file: FileRow): Promise<Readable>;
  /** A URL that downloads the file, without other credentials, until `expiresAt`. */
  downloadUrl(file: FileRow, expiresAt: Date): Promise<PartTarget>;
  /** Removes the file, or what was uploaded of it so far. */
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
