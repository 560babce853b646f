import { z } from "zod";
import { defineEndpoint, type Endpoint, pageJson, reachable } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { discountJson } from "./output.js";
import { Discount, DiscountCreate, DiscountList, DiscountListQuery, DiscountUpdate } from "./schemas.js";
import { changeDiscount, createDiscount, discountsWithProducts, discountWithProducts, findDiscount, pageOfDiscounts, removeDiscount } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "discounts";

export function discountEndpoints(parts: Pick<Parts, "db" | "units" | "access">): Endpoint[] {
  const { db, access } = parts;
  const discount = async (identity: IdentityClaims, scope: "discounts:read" | "discounts:write", id: string) => reachable(access, identity, scope, await findDiscount(db, id), "Discount");

  return [
    defineEndpoint("/v1/discounts/", { method: "POST", status: 201, body: DiscountCreate, response: Discount, summary: "Create a discount", tag: TAG }, async ({ body, identity }) =>
      createDiscount(parts, await access.organizationFor(identity, "discounts:write", body.organization_id), body),
    ),

    defineEndpoint(
      "/v1/discounts/",
      {
        method: "GET",
        query: DiscountListQuery,
        response: DiscountList,
        summary: "List discounts",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const organizationIds = await access.organizationIds(identity, "discounts:read");
        const { rows, total } = await pageOfDiscounts(db, { ...query, organizationIds }, { ...query, sort: query.sorting });
        return pageJson((await discountsWithProducts(db, rows)).map(discountJson), total, query.limit);
      },
    ),

    defineEndpoint("/v1/discounts/:id", { method: "GET", params: z.object({ id: z.string() }), response: Discount, summary: "Get a discount", tag: TAG }, async ({ params, identity }) =>
      discountJson(await discountWithProducts(db, await discount(identity, "discounts:read", params.id))),
    ),

    defineEndpoint("/v1/discounts/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: DiscountUpdate, response: Discount, summary: "Update a discount", tag: TAG }, async ({ params, body, identity }) =>
      changeDiscount(parts, await discount(identity, "discounts:write", params.id), body),
    ),

    defineEndpoint("/v1/discounts/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a discount", tag: TAG }, async ({ params, identity }) =>
      removeDiscount(parts.units, await discount(identity, "discounts:write", params.id)),
    ),
  ];
}
