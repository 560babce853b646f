import type { FileRow, UploadPart } from "./files.sql.js";

/** A size as people read it: 512 B, 1.5 kB, 23.4 MB. */
export function readableSize(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Where anyone may see a product's media or an organization's avatar. */
export const publicUrlOf = (publicUrl: string, file: FileRow) => `${publicUrl.replace(/\/$/, "")}/v1/files/public/${file.id}`;

/**
 * A file as Polar's FileRead shows it to its seller: a downloadable says whether it was flagged
 * malicious (Polar scans them; Tollgate scans none, so none is).
 */
export const fileReadJson = (file: FileRow, publicUrl: string) => ({ ...fileJson(file, publicUrl), ...(file.service === "downloadable" ? { flagged_malicious_at: null } : {}) });

/** A file as Polar shows it; media and avatars with the address anyone may load them from. */
export function fileJson(file: FileRow, publicUrl: string) {
  return {
    id: file.id,
    organization_id: file.organization_id,
    name: file.name,
    path: file.path,
    mime_type: file.mime_type,
    size: file.size,
    storage_version: file.storage_version,
    checksum_etag: file.checksum_etag,
    checksum_sha256_base64: file.checksum_sha256_base64,
    checksum_sha256_hex: file.checksum_sha256_hex,
    last_modified_at: file.last_modified_at,
    version: file.version,
    service: file.service,
    is_uploaded: file.is_uploaded,
    created_at: file.created_at,
    size_readable: readableSize(file.size),
    ...(file.service === "downloadable" ? {} : { public_url: publicUrlOf(publicUrl, file) }),
  };
}

/** A new file with where to send each of its parts (Polar's FileUpload). */
export function fileUploadJson(file: FileRow, publicUrl: string, parts: (UploadPart & { url: string; expires_at: Date; headers: Record<string, string> })[]) {
  return { ...fileJson(file, publicUrl), upload: { id: file.id, path: file.path, parts } };
}

/**
 * A Content-Disposition that saves the file under its name (RFC 6266): a plain-ASCII fallback, and
 * the name itself percent-encoded as RFC 8187 asks, which leaves unescaped fewer characters than
 * encodeURIComponent does (a `'` would end the value's charset part).
 */
export const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)}`;
