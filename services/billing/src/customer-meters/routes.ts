import { z } from "zod";
import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import { customerOf, mine } from "../customer-sessions/service.js";
import { CustomerCustomerMeter, CustomerCustomerMeterList, CustomerCustomerMeterListQuery, CustomerMeter, CustomerMeterList, CustomerMeterListQuery } from "./schemas.js";
import { customerMetersJson, findCustomerMeter, pageOfCustomerMeters, portalCustomerMetersJson } from "./service.js";
import type { Parts } from "../parts.js";

/** Customer meters: each customer's consumption, credits and balance on each meter, for the seller and in the portal. */
export function customerMeterEndpoints({ db, access }: Pick<Parts, "db" | "access">): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/customer-meters/",
      {
        method: "GET",
        query: CustomerMeterListQuery,
        response: CustomerMeterList,
        summary: "List customer meters",
        tag: "customer_meters",
      },
      async ({ query, identity }) => {
        const reachableIds = await access.organizationIds(identity, "customer_meters:read");
        const organizationIds = query.organization_id ? reachableIds.filter((id) => query.organization_id?.includes(id)) : reachableIds;
        const filter = { organizationIds, customerIds: query.customer_id, externalCustomerIds: query.external_customer_id, meterIds: query.meter_id };
        const { rows, total } = await pageOfCustomerMeters(db, filter, { ...query, sort: query.sorting });
        return pageJson(await customerMetersJson(db, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-meters/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomerMeter, summary: "Get a customer meter", tag: "customer_meters" }, async ({ params, identity }) => {
      const [json] = await customerMetersJson(db, [await reachable(access, identity, "customer_meters:read", await findCustomerMeter(db, params.id), "Customer meter")]);
      return json;
    }),
    defineEndpoint(
      "/v1/customer-portal/meters/",
      {
        method: "GET",
        query: CustomerCustomerMeterListQuery,
        response: CustomerCustomerMeterList,
        summary: "List the customer's meters",
        tag: "customer_portal",
      },
      async ({ query, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const filter = { organizationIds: [organizationId], customerIds: [customerId], meterIds: query.meter_id, meterName: query.query };
        const { rows, total } = await pageOfCustomerMeters(db, filter, { ...query, sort: query.sorting });
        return pageJson(await portalCustomerMetersJson(db, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-portal/meters/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomerCustomerMeter, summary: "Get one of the customer's meters", tag: "customer_portal" }, async ({ params, identity }) => {
      const { customer_id: customerId } = customerOf(identity);
      const found = await findCustomerMeter(db, params.id);
      const [json] = await portalCustomerMetersJson(db, [mine(found?.customer_id === customerId ? found : undefined, "Customer meter")]);
      return json;
    }),
  ];
}
