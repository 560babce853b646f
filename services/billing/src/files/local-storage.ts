import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { expiresAt as expiresOf, UrlGrants } from "../http/url-grants.js";
import type { FileRow, UploadPart } from "./files.sql.js";
import { UploadMismatch, type CompletedPart, type FileStorage, type NewUpload, type PartTarget, type StoredFile } from "./storage.js";

/** What a signed URL grants: uploading one part of one file, or downloading a file, until it expires. */
const grant = z.object({ file: z.string(), part: z.int(), expires: z.int(), use: z.enum(["upload", "download"]).default("upload") });
export type FileGrant = z.output<typeof grant>;

/** A part's ETag, as S3 gives it: the digest of the part's bytes, quoted. */
const etagOf = (sha256Hex: string) => `"${sha256Hex}"`;

/**
 * Files on the local disk, uploaded in parts to Tollgate itself: each part URL carries a signed,
 * expiring grant for that part, so the upload needs no other credentials, as with S3's pre-signed URLs.
 */
export class LocalFileStorage implements FileStorage {
  private readonly grants: UrlGrants<FileGrant>;

  constructor(
    private readonly root: string,
    private readonly publicUrl: string,
    secret: string,
  ) {
    this.grants = new UrlGrants(secret, "tollgate file uploads", grant);
  }

  readonly minimumPartSize = 1;

  startUpload(file: NewUpload, expiresAt: Date): Promise<{ uploadId: null; parts: Map<number, PartTarget> }> {
    const expires = expiresOf(expiresAt);
    const parts = new Map<number, PartTarget>();
    for (const part of file.upload_parts) {
      parts.set(part.number, { url: this.signedUrl("uploads", { file: file.id, part: part.number, expires, use: "upload" }), headers: {} });
    }
    return Promise.resolve({ uploadId: null, parts });
  }

  downloadUrl(file: FileRow, expiresAt: Date): Promise<PartTarget> {
    return Promise.resolve({ url: this.signedUrl("downloads", { file: file.id, part: 0, expires: expiresOf(expiresAt), use: "download" }), headers: {} });
  }

  /** The grant in a signed URL's token, if it is ours, for this use, and still valid. */
  readGrant(token: string, use: FileGrant["use"]): FileGrant | null {
    const granted = this.grants.read(token);
    return granted?.use === use ? granted : null;
  }

  /** Stores one part, refusing one of another size or checksum than declared; returns its ETag. */
  async receivePart(file: FileRow, part: UploadPart, body: Readable): Promise<string> {
    const directory = this.partsOf(file);
    await mkdir(directory, { recursive: true });
    const target = path.join(directory, String(part.number));
    const partial = `${target}.${process.pid}.${Date.now()}`;
    const digest = createHash("sha256");
    let size = 0;
    const expected = part.chunk_end - part.chunk_start + 1;
    try {
      await pipeline(
        body,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            if (size > expected) throw new UploadMismatch(`part ${part.number} is larger than its declared ${expected} bytes`, part.number);
            digest.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(partial),
      );
      if (size !== expected) throw new UploadMismatch(`part ${part.number} has ${size} bytes, not the declared ${expected}`, part.number);
      const sha256 = digest.digest();
      if (part.checksum_sha256_base64 && sha256.toString("base64") !== part.checksum_sha256_base64) {
        throw new UploadMismatch(`part ${part.number} does not match its declared SHA-256`, part.number);
      }
      await rename(partial, target);
      return etagOf(sha256.toString("hex"));
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async complete(file: FileRow, parts: CompletedPart[]): Promise<StoredFile> {
    const declared = [...file.upload_parts].sort((a, b) => a.number - b.number);
    const reported = new Map(parts.map((part) => [part.number, part]));
    const whole = createHash("sha256");
    const target = this.pathOf(file);
    await mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.${Date.now()}`;
    const out = createWriteStream(partial);
    try {
      for (const part of declared) {
        const source = path.join(this.partsOf(file), String(part.number));
        const size = await stat(source).then((info) => info.size, () => null);
        if (size === null) throw new UploadMismatch(`part ${part.number} was never uploaded`, part.number);
        const digest = createHash("sha256");
        for await (const chunk of createReadStream(source) as AsyncIterable<Buffer>) {
          digest.update(chunk);
          whole.update(chunk);
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
        }
        const etag = etagOf(digest.digest("hex"));
        if (reported.get(part.number)?.checksum_etag !== etag) throw new UploadMismatch(`part ${part.number}'s ETag is not the one its upload was given`, part.number);
      }
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
      const sha256 = whole.digest();
      if (file.checksum_sha256_base64 && sha256.toString("base64") !== file.checksum_sha256_base64) throw new UploadMismatch("the file does not match its declared SHA-256");
      await rename(partial, target);
      await rm(this.partsOf(file), { recursive: true, force: true });
      return { sha256Base64: sha256.toString("base64"), sha256Hex: sha256.toString("hex"), etag: etagOf(sha256.toString("hex")) };
    } catch (error) {
      out.destroy();
      await rm(partial, { force: true });
      throw error;
    }
  }

  async write(file: FileRow, bytes: Buffer): Promise<void> {
    const target = this.pathOf(file);
    await mkdir(path.dirname(target), { recursive: true });
    // Written aside and renamed into place, so a reader never meets half a file.
    const partial = `${target}.${process.pid}.${Date.now()}`;
    await writeFile(partial, bytes);
    await rename(partial, target);
  }

  read(file: FileRow): Promise<Readable> {
    return Promise.resolve(createReadStream(this.pathOf(file)));
  }

  async remove(file: FileRow): Promise<void> {
    await rm(this.pathOf(file), { force: true });
    await rm(this.partsOf(file), { recursive: true, force: true });
  }

  private signedUrl(kind: "uploads" | "downloads", granted: FileGrant): string {
    return `${this.publicUrl.replace(/\/$/, "")}/v1/files/${kind}/${this.grants.sign(granted)}`;
  }

  /** Each organization's files in a directory of their own, named by id (names are only shown). */
  private pathOf(file: Pick<FileRow, "organization_id" | "id">): string {
    return path.join(this.root, file.organization_id, file.id);
  }

  private partsOf(file: FileRow): string {
    return `${this.pathOf(file)}.parts`;
  }
}
