import { z } from "zod";
import { isoTimestamp, listResource, paging, repeated } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { IMAGE_TYPES } from "./serving.js";

const fileFields = {
  id: z.string(),
  organization_id: z.string(),
  name: z.string(),
  path: z.string(),
  mime_type: z.string(),
  size: z.int(),
  storage_version: z.string().nullable(),
  checksum_etag: z.string().nullable(),
  checksum_sha256_base64: z.string().nullable(),
  checksum_sha256_hex: z.string().nullable(),
  last_modified_at: isoTimestamp().nullable(),
  version: z.string().nullable(),
  is_uploaded: z.boolean(),
  created_at: isoTimestamp(),
  size_readable: z.string(),
};

/** Where anyone may load product media and avatars; downloadables have none. */
const publicUrl = z.url();

export const DownloadableFileRead = z.strictObject({ ...fileFields, service: z.literal("downloadable"), flagged_malicious_at: z.null() }).meta({ id: "DownloadableFileRead" });
export const ProductMediaFileRead = z.strictObject({ ...fileFields, service: z.literal("product_media"), public_url: publicUrl }).meta({ id: "ProductMediaFileRead" });
const OrganizationAvatarFileRead = z.strictObject({ ...fileFields, service: z.literal("organization_avatar"), public_url: publicUrl }).meta({ id: "OrganizationAvatarFileRead" });

export const FileRead = z.discriminatedUnion("service", [DownloadableFileRead, ProductMediaFileRead, OrganizationAvatarFileRead]).meta({ id: "FileRead" });

export const FileReadList = listResource(FileRead, "ListResource_FileRead_");

const S3FileUploadPart = z
  .strictObject({
    number: z.int(),
    chunk_start: z.int(),
    chunk_end: z.int(),
    checksum_sha256_base64: z.string().nullable(),
    url: z.url(),
    expires_at: isoTimestamp(),
    headers: z.record(z.string(), z.string()),
  })
  .meta({ id: "S3FileUploadPart" });

/** A new file with where to send each of its parts. */
export const FileUpload = z
  .strictObject({
    ...fileFields,
    service: z.enum(["downloadable", "product_media", "organization_avatar"]),
    public_url: publicUrl.optional(),
    upload: z.strictObject({ id: z.string(), path: z.string(), parts: z.array(S3FileUploadPart) }).meta({ id: "S3FileUploadMultipart" }),
  })
  .meta({ id: "FileUpload" });

/** A downloadable file a customer was granted, with an address that fetches it for a while. */
export const FileDownload = z
  .strictObject({
    ...fileFields,
    service: z.literal("downloadable"),
    download: z.strictObject({ url: z.url(), headers: z.record(z.string(), z.string()), expires_at: isoTimestamp() }).meta({ id: "S3DownloadURL" }),
  })
  .meta({ id: "FileDownload" });

export const Checksum = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, { error: "A SHA-256 digest in base64" });

/** A part of an upload as the uploader declares it. */
export const UploadPartDeclared = z.object({ number: z.int().min(1), chunk_start: z.int().min(0), chunk_end: z.int().min(0), checksum_sha256_base64: Checksum.nullish() });

const common = {
  organization_id: z.string().nullish(),
  name: z.string().min(1).max(255),
  mime_type: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, { error: "A MIME type such as application/pdf" }),
  size: z.int().min(1),
  checksum_sha256_base64: Checksum.nullish(),
  upload: z.object({ parts: z.array(UploadPartDeclared).min(1).max(10_000) }),
  version: z.string().max(64).nullish(),
};
const image = z.enum(IMAGE_TYPES, { error: `Media and avatars must be images: ${IMAGE_TYPES.join(", ")}` });

export const FileCreate = z.discriminatedUnion("service", [
  z.object({ ...common, service: z.literal("downloadable") }),
  z.object({ ...common, mime_type: image, service: z.literal("product_media") }),
  z.object({ ...common, mime_type: image, service: z.literal("organization_avatar") }),
]);

export const FileUploadCompleted = z.object({ id: z.string(), path: z.string(), parts: z.array(z.object({ number: z.int().min(1), checksum_etag: z.string(), checksum_sha256_base64: Checksum.nullable() })) });

export const FileListQuery = z.object({ ...paging, ...sellerFilter, ids: repeated(z.string()) });

export const FileUpdate = z.object({ name: z.string().min(1).max(255).nullish(), version: z.string().max(64).nullish() });
