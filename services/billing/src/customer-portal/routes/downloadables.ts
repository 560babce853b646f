import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerBenefitListQuery, DownloadableList } from "../schemas.js";
import { customerDownloadables, followDownloadLink } from "../downloadables.js";
import type { Parts } from "../../parts.js";

/** The files the customer's grants give them, each with a link that fetches it for an hour, and where such a link leads. */
export function portalDownloadableEndpoints(parts: Pick<Parts, "db" | "storage" | "config">): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/customer-portal/downloadables/",
      { method: "GET", query: CustomerBenefitListQuery, response: DownloadableList, summary: "List the files the customer's grants give them", tag: "customer_portal" },
      async ({ query, identity }) => customerDownloadables(parts, identity, query.benefit_id, query),
    ),
    // The link is the credential, as Polar's: followed from a browser or a download manager, without a session.
    defineEndpoint(
      "/v1/customer-portal/downloadables/:token",
      { method: "GET", status: 302, params: z.object({ token: z.string() }), produces: "application/octet-stream", summary: "Follow a download link: count the download, and redirect to the file", tag: "customer_portal" },
      async ({ params, res }) => res.redirect(302, await followDownloadLink(parts, params.token)),
    ),
  ];
}
