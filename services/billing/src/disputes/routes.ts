import { z } from "zod";
import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { disputeJson } from "./output.js";
import { Dispute, DisputeList, DisputeListQuery } from "./schemas.js";
import { acceptDispute, disputesWithCustomers, findDispute, pageOfDisputes, type DisputeRow } from "./service.js";

const TAG = "disputes";
const params = z.object({ id: z.string() });

/** The disputes buyers' banks opened against a seller's payments, as Polar's SDK lists, reads and accepts them. */
export function disputeEndpoints(parts: Pick<Parts, "db" | "units" | "access" | "processor">): Endpoint[] {
  const { db, access } = parts;
  const shown = async (dispute: DisputeRow) => {
    const [withCustomer] = await disputesWithCustomers(db, [dispute]);
    if (!withCustomer) throw new Error(`dispute ${dispute.id} could not be shown`);
    return disputeJson(withCustomer, new Date());
  };
  return [
    defineEndpoint("/v1/disputes/", { method: "GET", query: DisputeListQuery, response: DisputeList, summary: "List disputes", tag: TAG }, async ({ query, identity }) => {
      const organizationIds = await access.organizationIds(identity, "disputes:read");
      const { rows, total } = await pageOfDisputes(db, { organizationIds, filters: query }, { ...query, sort: query.sorting });
      const now = new Date();
      return pageJson((await disputesWithCustomers(db, rows)).map((dispute) => disputeJson(dispute, now)), total, query.limit);
    }),
    defineEndpoint("/v1/disputes/:id", { method: "GET", params, response: Dispute, summary: "Get a dispute", tag: TAG }, async ({ params, identity }) =>
      shown(await reachable(access, identity, "disputes:read", await findDispute(db, params.id), "Dispute")),
    ),
    defineEndpoint("/v1/disputes/:id/accept", { method: "POST", params, response: Dispute, summary: "Accept a dispute, conceding the chargeback", tag: TAG }, async ({ params, identity }) =>
      shown(await acceptDispute(parts, identity, params.id)),
    ),
  ];
}
