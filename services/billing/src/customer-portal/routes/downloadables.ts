import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerBenefitListQuery, DownloadableList } from "../schemas.js";
import { customerDownloadables } from "../service.js";
import type { Parts } from "../../parts.js";

/** The files the customer's grants give them, each with an address that fetches it for an hour. */
export function portalDownloadableEndpoints(parts: Pick<Parts, "db" | "storage" | "config">): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/customer-portal/downloadables/",
      { method: "GET", query: CustomerBenefitListQuery, response: DownloadableList, summary: "List the files the customer's grants give them", tag: "customer_portal" },
      async ({ query, identity }) => customerDownloadables(parts, identity, query.benefit_id, query),
    ),
  ];
}
