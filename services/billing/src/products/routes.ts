import { z } from "zod";
import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { metadataFilters } from "../http/metadata.js";
import { sellerProductJson } from "./output.js";
import { Product, ProductBenefitsUpdate, ProductCreate, ProductList, ProductListQuery, ProductUpdate } from "./schemas.js";
import { changeProduct, createProduct, deletableProductIds, deleteProduct, findProduct, pageOfProducts, productsWithParts, productWithParts, setProductBenefits } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "products";

export function productEndpoints(parts: Pick<Parts, "db" | "units" | "config"> & Pick<Parts, "access">): Endpoint[] {
  const { db, access, config } = parts;
  const product = async (identity: IdentityClaims, scope: "products:read" | "products:write", id: string) => reachable(access, identity, scope, await findProduct(db, id), "Product");

  return [
    defineEndpoint("/v1/products/", { method: "POST", status: 201, body: ProductCreate, response: Product, summary: "Create a product", tag: TAG }, async ({ body, identity }) =>
      createProduct(parts, await access.organizationFor(identity, "products:write", body.organization_id), body),
    ),

    defineEndpoint(
      "/v1/products/",
      {
        method: "GET",
        query: ProductListQuery,
        response: ProductList,
        summary: "List products",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const organizationIds = await access.organizationIds(identity, "products:read");
        const { rows, total } = await pageOfProducts(db, { ...query, organizationIds, ids: query.id, name: query.query, metadata: metadataFilters(req) }, { ...query, sort: query.sorting });
        const ids = rows.map((row) => row.id);
        const deletable = await deletableProductIds(db, ids);
        return pageJson((await productsWithParts(db, ids)).map((row) => sellerProductJson(row, config.PUBLIC_URL, deletable.has(row.id))), total, query.limit);
      },
    ),

    defineEndpoint("/v1/products/:id", { method: "GET", params: z.object({ id: z.string() }), response: Product, summary: "Get a product", tag: TAG }, async ({ params, identity }) => {
      const { id } = await product(identity, "products:read", params.id);
      return sellerProductJson(await productWithParts(db, id), config.PUBLIC_URL, (await deletableProductIds(db, [id])).has(id));
    }),

    defineEndpoint("/v1/products/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: ProductUpdate, response: Product, summary: "Update a product", tag: TAG }, async ({ params, body, identity }) =>
      changeProduct(parts, await product(identity, "products:write", params.id), body),
    ),

    defineEndpoint("/v1/products/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a product nothing has sold or offered yet", tag: TAG }, async ({ params, identity }) =>
      deleteProduct(db, await product(identity, "products:write", params.id)),
    ),

    defineEndpoint(
      "/v1/products/:id/benefits",
      { method: "POST", params: z.object({ id: z.string() }), body: ProductBenefitsUpdate, response: Product, summary: "Set the benefits a product grants", tag: TAG },
      async ({ params, body, identity }) => setProductBenefits(parts, await product(identity, "products:write", params.id), body.benefits),
    ),
  ];
}
