import type { Response } from "express";
import type { FileRow } from "./files.sql.js";
import { attachment } from "./output.js";

/**
 * Raster images: the only types product media and avatars may have. A browser never runs script
 * from one (SVG, by contrast, is a document that may carry script and load more of the seller's files).
 */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"] as const;

/**
 * Types no browser runs as a page, a script, a style or a worker when sent with `nosniff`: a file
 * of any other type is sent as opaque bytes, so a page of the site cannot load a seller's upload as script.
 */
const PASSIVE_TYPE = /^(?:image\/(?:png|jpeg|gif|webp|avif)|audio\/[\w.+-]+|video\/[\w.+-]+|font\/[\w.+-]+|text\/(?:plain|csv)|application\/(?:pdf|zip|gzip|x-tar|x-7z-compressed|x-rar-compressed|epub\+zip|octet-stream))$/;

/** The type a file is sent with: its own when that cannot run, else opaque bytes. */
export const servedType = (mimeType: string) => (PASSIVE_TYPE.test(mimeType) ? mimeType : "application/octet-stream");

/**
 * Sends the headers that keep a seller's file inert on the site's origin, whatever its bytes: its
 * declared type only when that type cannot run; no sniffing; a sandbox with nothing allowed, should
 * it be opened as a page; and, unless it is an image shown where it is embedded, a download.
 */
export function serveInert(res: Response, file: FileRow, shown: "inline" | "download"): void {
  const inline = shown === "inline" && (IMAGE_TYPES as readonly string[]).includes(file.mime_type);
  res.setHeader("content-type", servedType(file.mime_type));
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("content-security-policy", "default-src 'none'; sandbox");
  if (!inline) res.setHeader("content-disposition", attachment(file.name));
  res.setHeader("content-length", String(file.size));
}
