import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { attachment } from "./output.js";
import { servedType } from "./serving.js";
import type { FileRow } from "./files.sql.js";
import { UploadMismatch, type CompletedPart, type FileStorage, type NewUpload, type PartTarget, type StoredFile } from "./storage.js";

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service's address (MinIO, R2, …); AWS's own when absent. */
  endpoint?: string | undefined;
  forcePathStyle: boolean;
  /** Without keys the SDK's usual chain applies (environment, instance role, …). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

const uploadClosed = "this upload is no longer open; create the file again";

/** What S3 says when the reported parts do not make the declared upload. */
const partProblems: Record<string, string> = {
  InvalidPart: "a part was not uploaded, or its ETag is not the one its upload was given",
  InvalidPartOrder: "the parts are not in order",
  EntityTooSmall: "a part other than the last is smaller than 5 MiB",
  NoSuchUpload: uploadClosed,
};

/**
 * Files in an S3-compatible bucket. The uploader sends parts straight to pre-signed multipart URLs,
 * with their size (and declared checksum) signed in, so nothing passes through Tollgate.
 */
export class S3FileStorage implements FileStorage {
  readonly minimumPartSize = 5 * 1024 * 1024;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
      // Checksums are the ones the uploader declared, not ones the SDK would add to every request.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async startUpload(file: NewUpload, expiresAt: Date): Promise<{ uploadId: string; parts: Map<number, PartTarget> }> {
    // The name travels with the object as its Content-Disposition, never in its key.
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: file.path, ContentType: file.mime_type, ContentDisposition: attachment(file.name) }));
    if (!UploadId) throw new Error("the bucket opened a multipart upload without an id");
    const expiresIn = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    const parts = new Map<number, PartTarget>();
    for (const part of file.upload_parts) {
      const checksum: Record<string, string> = part.checksum_sha256_base64 ? { "x-amz-checksum-sha256": part.checksum_sha256_base64 } : {};
      const command = new UploadPartCommand({
        Bucket: this.bucket,
        Key: file.path,
        UploadId,
        PartNumber: part.number,
        ContentLength: part.chunk_end - part.chunk_start + 1,
        ...(part.checksum_sha256_base64 ? { ChecksumSHA256: part.checksum_sha256_base64 } : {}),
      });
      // The checksum stays a header the uploader must send, so S3 checks the bytes against it.
      const url = await getSignedUrl(this.client, command, { expiresIn, signableHeaders: new Set(["content-length"]), unhoistableHeaders: new Set(Object.keys(checksum)) });
      parts.set(part.number, { url, headers: checksum });
    }
    return { uploadId: UploadId, parts };
  }

  async complete(file: FileRow, parts: CompletedPart[]): Promise<StoredFile> {
    if (!file.upload_id) throw new UploadMismatch(uploadClosed);
    const reported = new Map(parts.map((part) => [part.number, part]));
    const declared = [...file.upload_parts].sort((a, b) => a.number - b.number);
    const missing = declared.find((part) => !reported.has(part.number));
    if (missing) throw new UploadMismatch(`part ${missing.number} was never uploaded`, missing.number);
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: file.path,
          UploadId: file.upload_id,
          MultipartUpload: { Parts: declared.map((part) => ({ PartNumber: part.number, ETag: reported.get(part.number)?.checksum_etag })) },
        }),
      );
    } catch (error) {
      const problem = error instanceof S3ServiceException ? partProblems[error.name] : undefined;
      if (problem) throw new UploadMismatch(problem);
      throw error;
    }
    // A multipart object's own checksum is of its parts' checksums, so the whole is read back once.
    const whole = createHash("sha256");
    let size = 0;
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: file.path }));
    for await (const chunk of this.bodyOf(object.Body) as AsyncIterable<Buffer>) {
      size += chunk.length;
      whole.update(chunk);
    }
    const sha256 = whole.digest();
    const mismatch =
      size !== file.size ? `the file has ${size} bytes, not the declared ${file.size}` : file.checksum_sha256_base64 && sha256.toString("base64") !== file.checksum_sha256_base64 ? "the file does not match its declared SHA-256" : null;
    if (mismatch) {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: file.path }));
      throw new UploadMismatch(mismatch);
    }
    return { sha256Base64: sha256.toString("base64"), sha256Hex: sha256.toString("hex"), etag: object.ETag ?? `"${sha256.toString("hex")}"` };
  }

  async downloadUrl(file: FileRow, expiresAt: Date): Promise<PartTarget> {
    const command = new GetObjectCommand({ Bucket: this.bucket, Key: file.path, ResponseContentDisposition: attachment(file.name), ResponseContentType: servedType(file.mime_type) });
    const expiresIn = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    return { url: await getSignedUrl(this.client, command, { expiresIn }), headers: {} };
  }

  async write(file: FileRow, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: file.path, Body: bytes, ContentType: file.mime_type, ContentDisposition: attachment(file.name) }));
  }

  async read(file: FileRow): Promise<Readable> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: file.path }));
    return this.bodyOf(object.Body);
  }

  async remove(file: FileRow): Promise<void> {
    if (file.is_uploaded || !file.upload_id) {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: file.path }));
      return;
    }
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: file.path, UploadId: file.upload_id }));
    } catch (error) {
      if (!(error instanceof S3ServiceException && error.name === "NoSuchUpload")) throw error;
    }
  }

  /** In Node the SDK hands an object's body over as a stream. */
  private bodyOf(body: unknown): Readable {
    if (body instanceof Readable) return body;
    throw new Error("the bucket returned an object without a readable body");
  }
}
