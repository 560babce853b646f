import { z } from "zod";
import { metadataFilters } from "../http/metadata.js";
import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { meterJson } from "./output.js";
import { Meter, MeterCreate, MeterList, MeterListQuery, MeterUpdate } from "./schemas.js";
import { changeMeter, createMeter, findMeter, pageOfMeters, type Remeasuring } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "meters";

/** Meters: a filter over the seller's events and an aggregation of those that pass it. */
export function meterEndpoints(parts: Pick<Parts, "db" | "units" | "access"> & { remeasuring: Remeasuring }): Endpoint[] {
  const { db, access } = parts;
  const meter = async (identity: IdentityClaims, scope: "meters:read" | "meters:write", id: string) => reachable(access, identity, scope, await findMeter(db, id), "Meter");
  return [
    defineEndpoint(
      "/v1/meters/",
      {
        method: "GET",
        query: MeterListQuery,
        response: MeterList,
        summary: "List meters",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const organizationIds = await access.organizationIds(identity, "meters:read");
        const { rows, total } = await pageOfMeters(db, { ...query, organizationIds, metadata: metadataFilters(req) }, { ...query, sort: query.sorting });
        return pageJson(rows.map(meterJson), total, query.limit);
      },
    ),
    defineEndpoint("/v1/meters/", { method: "POST", status: 201, body: MeterCreate, response: Meter, summary: "Create a meter", tag: TAG }, async ({ body, identity }) =>
      meterJson(await createMeter(parts, await access.organizationFor(identity, "meters:write", body.organization_id), body)),
    ),
    defineEndpoint("/v1/meters/:id", { method: "GET", params: z.object({ id: z.string() }), response: Meter, summary: "Get a meter", tag: TAG }, async ({ params, identity }) =>
      meterJson(await meter(identity, "meters:read", params.id)),
    ),
    defineEndpoint("/v1/meters/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: MeterUpdate, response: Meter, summary: "Update or archive a meter", tag: TAG }, async ({ params, body, identity }) =>
      meterJson(await changeMeter(parts, await meter(identity, "meters:write", params.id), body)),
    ),
  ];
}
