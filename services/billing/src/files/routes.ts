import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { defineEndpoint, HttpError, polarErrors, randomId, type Endpoint, invalidField, notFound, pageJson, pageOf, paging, repeated, reachable } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { files, findFile, insertFile, updateFile, type FileRow } from "./files.sql.js";
import type { LocalFileStorage } from "./local-storage.js";
import { fileJson, fileUploadJson } from "./output.js";
import { FileRead, FileReadList, FileUpload } from "./schemas.js";
import { IMAGE_TYPES, serveInert } from "./serving.js";
import { UploadMismatch } from "./storage.js";

const TAG = "files";
const checksum = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, { error: "A SHA-256 digest in base64" });

const part = z.object({ number: z.int().min(1), chunk_start: z.int().min(0), chunk_end: z.int().min(0), checksum_sha256_base64: checksum.nullish() });

const common = {
  organization_id: z.string().nullish(),
  name: z.string().min(1).max(255),
  mime_type: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, { error: "A MIME type such as application/pdf" }),
  size: z.int().min(1),
  checksum_sha256_base64: checksum.nullish(),
  upload: z.object({ parts: z.array(part).min(1).max(10_000) }),
  version: z.string().max(64).nullish(),
};
const image = z.enum(IMAGE_TYPES, { error: `Media and avatars must be images: ${IMAGE_TYPES.join(", ")}` });

const createBody = z.discriminatedUnion("service", [
  z.object({ ...common, service: z.literal("downloadable") }),
  z.object({ ...common, mime_type: image, service: z.literal("product_media") }),
  z.object({ ...common, mime_type: image, service: z.literal("organization_avatar") }),
]);

/** The parts must be numbered 1…n and cover the file's bytes exactly, in order, none but the last too small for the store. */
function partsProblem(parts: z.output<typeof part>[], size: number, minimumPartSize: number): string | null {
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

export function fileEndpoints(billing: Billing): Endpoint[] {
  const { db, access, config, storage } = billing;
  const publicUrl = config.PUBLIC_URL;
  const file = async (identity: IdentityClaims, scope: "files:read" | "files:write", id: string) => reachable(access, identity, scope, await findFile(db, id), "File");
  const json = (row: FileRow) => fileJson(row, publicUrl);

  return [
    defineEndpoint("/v1/files/", { method: "POST", status: 201, body: createBody, response: FileUpload, summary: "Start uploading a file", tag: TAG }, async ({ body, identity }) => {
      const organizationId = await access.organizationFor(identity, "files:write", body.organization_id);
      if (body.size > config.FILE_MAX_SIZE) throw invalidField(["size"], `Files may be at most ${config.FILE_MAX_SIZE} bytes`, body.size);
      const problem = partsProblem(body.upload.parts, body.size, storage.minimumPartSize);
      if (problem) throw invalidField(["upload", "parts"], problem);
      const id = randomId(32);
      const upload = {
        id,
        organization_id: organizationId,
        path: `${organizationId}/${id}/${body.name}`,
        mime_type: body.mime_type,
        upload_parts: body.upload.parts.map((declared) => ({ ...declared, checksum_sha256_base64: declared.checksum_sha256_base64 ?? null })),
      };
      const expiresAt = new Date(Date.now() + config.FILE_UPLOAD_URL_TTL_SECONDS * 1000);
      const started = await storage.startUpload(upload, expiresAt);
      const created = await insertFile(db, {
        ...upload,
        service: body.service,
        name: body.name,
        size: body.size,
        version: body.version ?? null,
        checksum_sha256_base64: body.checksum_sha256_base64 ?? null,
        upload_id: started.uploadId,
      });
      return fileUploadJson(
        created,
        publicUrl,
        created.upload_parts.map((declared) => {
          const target = started.parts.get(declared.number);
          if (!target) throw new Error(`the store gave no URL for part ${declared.number}`);
          return { ...declared, ...target, expires_at: expiresAt };
        }),
      );
    }),

    defineEndpoint(
      "/v1/files/:id/uploaded",
      {
        method: "POST",
        params: z.object({ id: z.string() }),
        body: z.object({ id: z.string(), path: z.string(), parts: z.array(z.object({ number: z.int().min(1), checksum_etag: z.string(), checksum_sha256_base64: checksum.nullable() })) }),
        response: FileRead,
        summary: "Complete a file's upload",
        tag: TAG,
      },
      async ({ params, body, identity }) => {
        const existing = await file(identity, "files:write", params.id);
        if (existing.is_uploaded) return json(existing);
        if (body.id !== existing.id || body.path !== existing.path) throw invalidField(["id"], "This is not the upload of this file", body.id);
        try {
          const stored = await storage.complete(existing, body.parts);
          const updated = await updateFile(db, existing.id, {
            is_uploaded: true,
            checksum_sha256_base64: stored.sha256Base64,
            checksum_sha256_hex: stored.sha256Hex,
            checksum_etag: stored.etag,
            last_modified_at: new Date(),
          });
          return json(updated ?? existing);
        } catch (error) {
          if (error instanceof UploadMismatch) throw invalidField(error.part === undefined ? ["parts"] : ["parts", error.part - 1], error.message);
          throw error;
        }
      },
    ),

    defineEndpoint("/v1/files/", { method: "GET", query: z.object({ ...paging, organization_id: repeated(z.string()), ids: repeated(z.string()) }), response: FileReadList, summary: "List uploaded files", tag: TAG }, async ({ query, identity }) => {
      const found = files(db).where({ is_uploaded: true }).whereIn("organization_id", await access.organizationIds(identity, "files:read"));
      if (query.organization_id) void found.whereIn("organization_id", query.organization_id);
      if (query.ids) void found.whereIn("id", query.ids);
      const { rows, total } = await pageOf<FileRow, "created_at">(found, { ...query, sort: [{ property: "created_at", descending: true }], columns: { created_at: "created_at" }, table: "files" });
      return pageJson(rows.map(json), total, query.limit);
    }),

    defineEndpoint(
      "/v1/files/:id",
      {
        method: "PATCH",
        params: z.object({ id: z.string() }),
        body: z.object({ name: z.string().min(1).max(255).nullish(), version: z.string().max(64).nullish() }),
        response: FileRead,
        summary: "Rename a file, or change its version",
        tag: TAG,
      },
      async ({ params, body, identity }) => {
        const existing = await file(identity, "files:write", params.id);
        const updated = await updateFile(db, existing.id, { ...(body.name ? { name: body.name } : {}), ...(body.version !== undefined ? { version: body.version } : {}) });
        return json(updated ?? existing);
      },
    ),

    defineEndpoint("/v1/files/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a file", tag: TAG }, async ({ params, identity }) => {
      const existing = await file(identity, "files:write", params.id);
      await updateFile(db, existing.id, { deleted_at: new Date() });
      await storage.remove(existing);
    }),

    // Product media and avatars are public, as they are shown on checkout pages.
    defineEndpoint("/v1/files/public/:id", { method: "GET", params: z.object({ id: z.string() }), produces: "image/*", summary: "Get a product image or organization avatar", tag: TAG }, async ({ params, res }) => {
      const media = await findFile(db, params.id);
      if (!media || media.service === "downloadable" || !media.is_uploaded) throw notFound("File");
      serveInert(res, media, "inline");
      res.setHeader("cache-control", "public, max-age=86400");
      if (media.checksum_etag) res.setHeader("etag", media.checksum_etag);
      const content = await storage.read(media);
      await new Promise<void>((resolve, reject) => content.on("error", reject).pipe(res).on("finish", resolve));
    }),
  ];
}

/** Where parts go when files are kept on the local disk: the URL's signed grant is the credential, as with S3's pre-signed URLs. */
export function localUploadEndpoints(billing: Billing, storage: LocalFileStorage): Endpoint[] {
  const { db } = billing;
  return [
    // Answers 200 with the part's ETag, as S3 does.
    defineEndpoint("/v1/files/uploads/:token", { method: "PUT", params: z.object({ token: z.string() }), produces: "application/octet-stream", summary: "Upload one part of a file", tag: TAG }, async ({ params, req, res }) => {
      const grant = storage.readGrant(params.token, "upload");
      if (!grant) throw new HttpError(403, polarErrors.codes.forbidden, "This upload URL is not valid, or has expired");
      const target = await findFile(db, grant.file);
      const declared = target?.upload_parts.find((candidate) => candidate.number === grant.part);
      if (!target || !declared || target.is_uploaded) throw notFound("Upload");
      try {
        res.setHeader("etag", await storage.receivePart(target, declared, req));
        res.status(200).end();
      } catch (error) {
        if (error instanceof UploadMismatch) throw new HttpError(400, polarErrors.codes.bad_request, error.message);
        throw error;
      }
    }),
    defineEndpoint("/v1/files/downloads/:token", { method: "GET", params: z.object({ token: z.string() }), produces: "application/octet-stream", summary: "Download a file", tag: TAG }, async ({ params, res }) => {
      const grant = storage.readGrant(params.token, "download");
      if (!grant) throw new HttpError(403, polarErrors.codes.forbidden, "This download URL is not valid, or has expired");
      const file = await findFile(db, grant.file);
      if (!file?.is_uploaded) throw notFound("File");
      serveInert(res.status(200), file, "download");
      await pipeline(await storage.read(file), res);
    }),
  ];
}
