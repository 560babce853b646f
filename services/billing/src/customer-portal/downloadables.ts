import { z } from "zod";
import { HttpError, notFound, pageJson, polarErrors } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { liveDownloadableGrants } from "../benefits/benefits.sql.js";
import { customerOf } from "../customer-sessions/service.js";
import { countDownload } from "../files/downloads.sql.js";
import { uploadedFilesWithIds } from "../files/files.sql.js";
import { expiresAt as expiresOf, UrlGrants } from "../http/url-grants.js";
import { downloadableJson } from "./output.js";
import { portalViewer } from "./team.js";
import type { Parts } from "../parts.js";

/** How long a portal download link works: an hour, and only while the grant lasts. */
const LINK_TTL_MS = 60 * 60 * 1000;

/** How long the store's own address, to which a followed link sends the customer, works: long enough to start the download. */
const STORE_URL_TTL_MS = 5 * 60 * 1000;

/** What a download link grants: this customer, this file, through this grant of this benefit, until it expires. */
const DownloadLink = z.object({ customer: z.string(), grant: z.string(), benefit: z.string(), file: z.string(), expires: z.int() });

export const downloadLinks = (secret: string) => new UrlGrants(secret, "tollgate download links", DownloadLink);

/** The files the customer's live grants (of one benefit, when named) give them, each with the grant that gives it. */
async function grantedFiles(db: Parts["db"], customerId: string, benefitId: string | undefined) {
  const grants = await liveDownloadableGrants(db, customerId, benefitId);
  const granted = grants.flatMap((grant) => ((grant.properties as { files?: string[] }).files ?? []).map((fileId) => ({ grant, fileId })));
  const found = await uploadedFilesWithIds(db, granted.map(({ fileId }) => fileId));
  return granted.flatMap(({ grant, fileId }) => found.filter((file) => file.id === fileId).map((file) => ({ grant, file })));
}

/**
 * The files the customer's grants give them, one page of them, each with a link that works for an
 * hour: the link comes back to Tollgate, which counts the download and sends the customer on to the
 * store, so every download is counted wherever the files are kept.
 */
export async function customerDownloadables({ db, config }: Pick<Parts, "db" | "config">, identity: IdentityClaims, benefitId: string | undefined, page: { page: number; limit: number }) {
  const customerId = customerOf(identity).customer_id;
  // A plain member of a team downloads what their own grants give.
  const viewer = await portalViewer(db, identity);
  const available = (await grantedFiles(db, customerId, benefitId)).filter(({ grant }) => viewer === null || grant.member_id === viewer);
  const expiresAt = new Date(Date.now() + LINK_TTL_MS);
  const links = downloadLinks(config.FILE_URL_SECRET);
  const start = (page.page - 1) * page.limit;
  const items = available.slice(start, start + page.limit).map(({ grant, file }) => {
    const token = links.sign({ customer: customerId, grant: grant.id, benefit: grant.benefit_id, file: file.id, expires: expiresOf(expiresAt) });
    return downloadableJson(grant, file, { url: `${config.PUBLIC_URL.replace(/\/$/, "")}/v1/customer-portal/downloadables/${token}`, headers: {}, expiresAt }, config.PUBLIC_URL);
  });
  return pageJson(items, available.length, page.limit);
}

/**
 * Where a followed download link leads: the file in its store, for a few minutes, once the download
 * is counted. The link is the only credential; it works while it has not expired and the grant that
 * gives the file is live, so a revoked grant's links stop working.
 */
export async function followDownloadLink({ db, storage, config }: Pick<Parts, "db" | "storage" | "config">, token: string): Promise<string> {
  const link = downloadLinks(config.FILE_URL_SECRET).read(token);
  if (!link) throw new HttpError(403, polarErrors.codes.forbidden, "This download link is not valid, or has expired");
  const granted = (await grantedFiles(db, link.customer, link.benefit)).find(({ grant, file }) => grant.id === link.grant && file.id === link.file);
  if (!granted) throw notFound("Downloadable");
  await countDownload(db, { benefit_id: link.benefit, file_id: link.file, customer_id: link.customer }, new Date());
  return (await storage.downloadUrl(granted.file, new Date(Date.now() + STORE_URL_TTL_MS))).url;
}
