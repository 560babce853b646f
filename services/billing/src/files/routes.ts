import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { defineEndpoint, HttpError, polarErrors, type Endpoint, type Knex, notFound, pageJson, reachable } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { LocalFileStorage } from "./local-storage.js";
import { fileReadJson } from "./output.js";
import { FileCreate, FileListQuery, FileRead, FileReadList, FileUpdate, FileUpload, FileUploadCompleted } from "./schemas.js";
import { changeFile, completeUpload, deleteFile, findFile, pageOfFiles, startUpload, type FileRow } from "./service.js";
import { serveInert } from "./serving.js";
import { UploadMismatch } from "./storage.js";
import type { Parts } from "../parts.js";

const TAG = "files";
/** The files anyone may fetch by id: what checkout pages show. Downloadables and invoices are reached only by signed links. */
const PUBLIC_SERVICES = new Set<FileRow["service"]>(["product_media", "organization_avatar"]);

export function fileEndpoints(parts: Pick<Parts, "db" | "storage" | "config" | "access">): Endpoint[] {
  const { db, access, config, storage } = parts;
  const publicUrl = config.PUBLIC_URL;
  // An invoice Tollgate made is none of the seller's files: it cannot be read, renamed or deleted as one.
  const sellersOwn = (row: FileRow | undefined) => (row?.service === "order_document" ? undefined : row);
  const file = async (identity: IdentityClaims, scope: "files:read" | "files:write", id: string) => reachable(access, identity, scope, sellersOwn(await findFile(db, id)), "File");
  const json = (row: FileRow) => fileReadJson(row, publicUrl);

  return [
    defineEndpoint("/v1/files/", { method: "POST", status: 201, body: FileCreate, response: FileUpload, summary: "Start uploading a file", tag: TAG }, async ({ body, identity }) =>
      startUpload(parts, await access.organizationFor(identity, "files:write", body.organization_id), body),
    ),

    defineEndpoint(
      "/v1/files/:id/uploaded",
      {
        method: "POST",
        params: z.object({ id: z.string() }),
        body: FileUploadCompleted,
        response: FileRead,
        summary: "Complete a file's upload",
        tag: TAG,
      },
      async ({ params, body, identity }) => json(await completeUpload(parts, await file(identity, "files:write", params.id), body)),
    ),

    defineEndpoint("/v1/files/", { method: "GET", query: FileListQuery, response: FileReadList, summary: "List uploaded files", tag: TAG }, async ({ query, identity }) => {
      const organizationIds = await access.organizationIds(identity, "files:read");
      const { rows, total } = await pageOfFiles(db, { ...query, organizationIds }, query);
      return pageJson(rows.map(json), total, query.limit);
    }),

    defineEndpoint(
      "/v1/files/:id",
      {
        method: "PATCH",
        params: z.object({ id: z.string() }),
        body: FileUpdate,
        response: FileRead,
        summary: "Rename a file, or change its version",
        tag: TAG,
      },
      async ({ params, body, identity }) => json(await changeFile(db, await file(identity, "files:write", params.id), body)),
    ),

    defineEndpoint("/v1/files/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a file", tag: TAG }, async ({ params, identity }) => {
      await deleteFile(parts, await file(identity, "files:write", params.id));
    }),

    // Product media and avatars are public, as they are shown on checkout pages.
    defineEndpoint("/v1/files/public/:id", { method: "GET", params: z.object({ id: z.string() }), produces: "image/*", summary: "Get a product image or organization avatar", tag: TAG }, async ({ params, res }) => {
      const media = await findFile(db, params.id);
      if (!media || !PUBLIC_SERVICES.has(media.service) || !media.is_uploaded) throw notFound("File");
      serveInert(res, media, "inline");
      res.setHeader("cache-control", "public, max-age=86400");
      if (media.checksum_etag) res.setHeader("etag", media.checksum_etag);
      const content = await storage.read(media);
      await new Promise<void>((resolve, reject) => content.on("error", reject).pipe(res).on("finish", resolve));
    }),
  ];
}

/** Where parts go when files are kept on the local disk: the URL's signed grant is the credential, as with S3's pre-signed URLs. */
export function localUploadEndpoints(db: Knex, storage: LocalFileStorage): Endpoint[] {
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
