import { z } from "zod";
import { defineEndpoint, randomId, type Endpoint, type Knex, invalidField, notPermitted, parseNested, pageJson, pageOf, paging, queryFlag, repeated, sorting, reachable } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { metadataFilters, metadataInput, whereMetadata } from "../api/metadata.js";
import { emitBillingEvent } from "../events.js";
import { findDownloadableFiles } from "../files/files.sql.js";
import { benefits, findBenefit, insertBenefit, updateBenefit, type BenefitRow } from "./benefits.sql.js";
import { grantsPage } from "./grants.js";
import { benefitJson } from "./output.js";
import { BENEFIT_PROPERTIES, BENEFIT_TYPES, storedProperties, type BenefitType } from "./properties.js";
import { Benefit, BenefitGrantList, BenefitList } from "./schemas.js";

const description = z.string().min(3).max(42);
const common = { description, metadata: metadataInput.default({}), organization_id: z.string().nullish() };

const createBody = z.discriminatedUnion("type", [
  z.object({ ...common, type: z.literal("custom"), properties: BENEFIT_PROPERTIES.custom }),
  z.object({ ...common, type: z.literal("discord"), properties: BENEFIT_PROPERTIES.discord }),
  z.object({ ...common, type: z.literal("github_repository"), properties: BENEFIT_PROPERTIES.github_repository }),
  z.object({ ...common, type: z.literal("downloadables"), properties: BENEFIT_PROPERTIES.downloadables }),
  z.object({ ...common, type: z.literal("license_keys"), properties: BENEFIT_PROPERTIES.license_keys }),
  z.object({ ...common, type: z.literal("meter_credit"), properties: BENEFIT_PROPERTIES.meter_credit }),
]);

const updateBody = z.object({
  type: z.enum(BENEFIT_TYPES),
  description: description.nullish(),
  metadata: metadataInput.optional(),
  properties: z.record(z.string(), z.unknown()).nullish(),
});

const SORTABLE = { created_at: "created_at", description: "description", type: "type", user_order: "created_at" } as const;
const TAG = "benefits";

export function benefitEndpoints(billing: Billing): Endpoint[] {
  const { db, access, outbox } = billing;
  const benefit = async (identity: IdentityClaims, scope: "benefits:read" | "benefits:write", id: string) => reachable(access, identity, scope, await findBenefit(db, id), "Benefit");

  /** A downloadable benefit hands out files: the seller's own, uploaded ones. */
  const assertFiles = async (type: BenefitType, properties: Record<string, unknown>, organizationId: string) => {
    if (type !== "downloadables") return;
    const wanted = properties.files as string[];
    const found = new Set((await findDownloadableFiles(db, organizationId, wanted)).map((file) => file.id));
    const missing = wanted.findIndex((id) => !found.has(id));
    if (missing >= 0) throw invalidField(["properties", "files", missing], "File not found, not uploaded yet, or not a downloadable", wanted[missing]);
  };

  const announce = (trx: Knex.Transaction, type: "benefit.created" | "benefit.updated", row: BenefitRow) => emitBillingEvent(outbox, trx, type, row.organization_id, benefitJson(row));

  return [
    defineEndpoint("/v1/benefits/", { method: "POST", status: 201, body: createBody, response: Benefit, summary: "Create a benefit", tag: TAG }, async ({ body, identity }) => {
      const organizationId = await access.organizationFor(identity, "benefits:write", body.organization_id);
      await assertFiles(body.type, body.properties, organizationId);
      return db.transaction(async (trx) => {
        const created = await insertBenefit(trx, {
          id: randomId(32),
          organization_id: organizationId,
          type: body.type,
          description: body.description,
          properties: storedProperties(body.type, body.properties),
          metadata: body.metadata,
        });
        await announce(trx, "benefit.created", created);
        return benefitJson(created);
      });
    }),

    defineEndpoint(
      "/v1/benefits/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          type: repeated(z.enum(BENEFIT_TYPES)),
          id: repeated(z.string()),
          exclude_id: repeated(z.string()),
          query: z.string().optional(),
          sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-created_at"),
        }),
        response: BenefitList,
        summary: "List benefits",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const found = benefits(db).whereIn("organization_id", await access.organizationIds(identity, "benefits:read"));
        if (query.organization_id) void found.whereIn("organization_id", query.organization_id);
        if (query.type) void found.whereIn("type", query.type);
        if (query.id) void found.whereIn("id", query.id);
        if (query.exclude_id) void found.whereNotIn("id", query.exclude_id);
        if (query.query) void found.whereILike("description", `%${query.query}%`);
        whereMetadata(found, "metadata", metadataFilters(req));
        const { rows, total } = await pageOf<BenefitRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "benefits" });
        return pageJson(rows.map(benefitJson), total, query.limit);
      },
    ),

    defineEndpoint("/v1/benefits/:id", { method: "GET", params: z.object({ id: z.string() }), response: Benefit, summary: "Get a benefit", tag: TAG }, async ({ params, identity }) =>
      benefitJson(await benefit(identity, "benefits:read", params.id)),
    ),

    defineEndpoint("/v1/benefits/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody, response: Benefit, summary: "Update a benefit", tag: TAG }, async ({ params, body, identity }) => {
      const existing = await benefit(identity, "benefits:write", params.id);
      if (body.type !== existing.type) throw invalidField(["type"], `This benefit is of type ${existing.type}`, body.type);
      let properties: Record<string, unknown> | undefined;
      if (body.properties) {
        properties = storedProperties(existing.type, parseNested(BENEFIT_PROPERTIES[existing.type], ["properties"], body.properties));
        await assertFiles(existing.type, properties, existing.organization_id);
      }
      return db.transaction(async (trx) => {
        const updated = await updateBenefit(trx, existing.id, {
          ...(body.description ? { description: body.description } : {}),
          ...(body.metadata ? { metadata: body.metadata } : {}),
          ...(properties ? { properties } : {}),
        });
        if (!updated) throw new Error("the benefit went away while being updated");
        await announce(trx, "benefit.updated", updated);
        return benefitJson(updated);
      });
    }),

    defineEndpoint("/v1/benefits/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a benefit", tag: TAG }, async ({ params, identity }) => {
      const existing = await benefit(identity, "benefits:write", params.id);
      if (!existing.deletable) throw notPermitted("This benefit cannot be deleted");
      await db.transaction(async (trx) => {
        // Kept for the grants that refer to it; gone from products and lists.
        const deleted = await updateBenefit(trx, existing.id, { is_deleted: true });
        await trx("product_benefits").where({ benefit_id: existing.id }).delete();
        if (deleted) await announce(trx, "benefit.updated", deleted);
      });
    }),

    defineEndpoint(
      "/v1/benefits/:id/grants",
      {
        method: "GET",
        params: z.object({ id: z.string() }),
        query: z.object({ ...paging, is_granted: queryFlag().optional(), customer_id: repeated(z.string()) }),
        response: BenefitGrantList,
        summary: "List a benefit's grants",
        tag: TAG,
      },
      async ({ params, query, identity }) => {
        const granted = await benefit(identity, "benefits:read", params.id);
        return grantsPage(db, { ...query, benefitIds: [granted.id], organizationIds: [granted.organization_id], sort: [{ property: "created_at", descending: true }] });
      },
    ),

    defineEndpoint(
      "/v1/benefit-grants/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          customer_id: repeated(z.string()),
          external_customer_id: repeated(z.string()),
          is_granted: queryFlag().optional(),
          sorting: sorting(["created_at", "granted_at", "revoked_at"] as const, "-created_at"),
        }),
        response: BenefitGrantList,
        summary: "List benefit grants",
        tag: "benefit-grants",
      },
      async ({ query, identity }) => {
        const reachableIds = await access.organizationIds(identity, "benefits:read");
        const organizationIds = query.organization_id ? reachableIds.filter((id) => query.organization_id?.includes(id)) : reachableIds;
        return grantsPage(db, { ...query, organizationIds, externalCustomerIds: query.external_customer_id, sort: query.sorting });
      },
    ),
  ];
}
