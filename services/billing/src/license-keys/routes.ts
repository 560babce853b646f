import { z } from "zod";
import type { Request } from "express";
import { defineEndpoint, notFound, pageJson, pageOf, paging, reachable, repeated, sorting, whereAnyOf, type Endpoint, pgInteger } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { withinRate } from "../api/rate-limit.js";
import { activateKey, deactivateKey, validateKey } from "./checks.js";
import { activationsOf, licenseKeys, updateLicenseKey, type LicenseKeyRow } from "./license-keys.sql.js";
import { activationJson, licenseKeyJson, licenseKeysJson, licenseKeyWithActivationsJson } from "./output.js";
import { LicenseKeyActivationRead, LicenseKeyList, LicenseKeyRead, LicenseKeyWithActivations, ValidatedLicenseKey } from "./schemas.js";

const conditions = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const validateBody = z.object({
  key: z.string(),
  organization_id: z.string(),
  activation_id: z.string().nullish(),
  benefit_id: z.string().nullish(),
  customer_id: z.string().nullish(),
  increment_usage: pgInteger().min(1).nullish(),
  conditions: conditions.optional(),
});
const activateBody = z.object({ key: z.string(), organization_id: z.string(), label: z.string().min(1).max(256), conditions: conditions.optional(), meta: conditions.optional() });
const deactivateBody = z.object({ key: z.string(), organization_id: z.string(), activation_id: z.string() });
const updateBody = z.object({
  status: z.enum(["granted", "revoked", "disabled"]).nullish(),
  usage: pgInteger().min(0).optional(),
  limit_activations: z.int().min(1).max(50).nullish(),
  limit_usage: pgInteger().min(1).nullish(),
  expires_at: z.iso.datetime({ offset: true }).transform((value) => new Date(value)).nullish(),
});

const SORTABLE = { created_at: "created_at" } as const;
const TAG = "license_keys";
const PORTAL_TAG = "customer_portal";
/** Public key checks a customer's software makes: per address, per call. */
const PORTAL_LIMIT = { calls: 30, windowSeconds: 60 };

/**
 * License keys: the seller reads and adjusts them; the seller's backend (with a token) or the
 * customer's software (through the customer portal paths, without one, rate limited) validates,
 * activates and deactivates them.
 */
export function licenseKeyEndpoints(billing: Billing): Endpoint[] {
  const { db, access, redis } = billing;
  const seller = async (identity: Parameters<typeof access.organizationFor>[0], organizationId: string) => access.organizationFor(identity, "license_keys:write", organizationId);
  const limited = (req: Request, call: string) => withinRate(redis, `license-keys:${call}:${req.clientAddress ?? "unknown"}`, PORTAL_LIMIT.calls, PORTAL_LIMIT.windowSeconds);

  const validate = async (body: z.output<typeof validateBody>) =>
    db.transaction(async (trx) => {
      const { key, activation } = await validateKey(trx, body);
      return { ...(await licenseKeyJson(trx, key)), activation: activation ? activationJson(activation) : null };
    });
  const activate = async (body: z.output<typeof activateBody>) =>
    db.transaction(async (trx) => {
      const { key, activation } = await activateKey(trx, body);
      return { ...activationJson(activation), license_key: await licenseKeyJson(trx, key) };
    });
  const deactivate = async (body: z.output<typeof deactivateBody>) => {
    await db.transaction((trx) => deactivateKey(trx, body));
  };

  return [
    defineEndpoint(
      "/v1/license-keys/",
      {
        method: "GET",
        query: z.object({ ...paging, organization_id: repeated(z.string()), benefit_id: repeated(z.string()), sorting: sorting(["created_at"], "-created_at") }),
        response: LicenseKeyList,
        summary: "List license keys",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const found = licenseKeys(db).whereIn("organization_id", await access.organizationIds(identity, "license_keys:read"));
        whereAnyOf(found, query, ["organization_id", "benefit_id"]);
        const { rows, total } = await pageOf<LicenseKeyRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "license_keys" });
        return pageJson(await licenseKeysJson(db, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/license-keys/validate", { method: "POST", body: validateBody, response: ValidatedLicenseKey, summary: "Validate a license key", tag: TAG }, async ({ body, identity }) =>
      validate({ ...body, organization_id: await seller(identity, body.organization_id) }),
    ),
    defineEndpoint("/v1/license-keys/activate", { method: "POST", body: activateBody, response: LicenseKeyActivationRead, summary: "Activate a license key", tag: TAG }, async ({ body, identity }) =>
      activate({ ...body, organization_id: await seller(identity, body.organization_id) }),
    ),
    defineEndpoint("/v1/license-keys/deactivate", { method: "POST", status: 204, body: deactivateBody, summary: "Deactivate a license key", tag: TAG }, async ({ body, identity }) =>
      deactivate({ ...body, organization_id: await seller(identity, body.organization_id) }),
    ),
    defineEndpoint("/v1/license-keys/:id", { method: "GET", params: z.object({ id: z.string() }), response: LicenseKeyWithActivations, summary: "Get a license key", tag: TAG }, async ({ params, identity }) =>
      licenseKeyWithActivationsJson(db, await reachable(access, identity, "license_keys:read", await licenseKeys(db).where({ id: params.id }).first(), "License key")),
    ),
    defineEndpoint("/v1/license-keys/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody, response: LicenseKeyRead, summary: "Update a license key", tag: TAG }, async ({ params, body, identity }) => {
      const key = await reachable(access, identity, "license_keys:write", await licenseKeys(db).where({ id: params.id }).first(), "License key");
      const changes: Parameters<typeof updateLicenseKey>[2] = {};
      if (body.status) changes.status = body.status;
      for (const field of ["usage", "limit_activations", "limit_usage", "expires_at"] as const) {
        if (body[field] !== undefined) Object.assign(changes, { [field]: body[field] });
      }
      return licenseKeyJson(db, await updateLicenseKey(db, key.id, changes));
    }),
    defineEndpoint(
      "/v1/license-keys/:id/activations/:activation_id",
      { method: "GET", params: z.object({ id: z.string(), activation_id: z.string() }), response: LicenseKeyActivationRead, summary: "Get a license key's activation", tag: TAG },
      async ({ params, identity }) => {
        const key = await reachable(access, identity, "license_keys:read", await licenseKeys(db).where({ id: params.id }).first(), "License key");
        const activation = (await activationsOf(db, [key.id])).find((candidate) => candidate.id === params.activation_id);
        if (!activation) throw notFound("License key activation");
        return { ...activationJson(activation), license_key: await licenseKeyJson(db, key) };
      },
    ),

    // The customer's software, with no token: the key itself is the credential.
    defineEndpoint("/v1/customer-portal/license-keys/validate", { method: "POST", body: validateBody, response: ValidatedLicenseKey, summary: "Validate a license key, from the customer's software", tag: PORTAL_TAG }, async ({ body, req }) => {
      await limited(req, "validate");
      return validate(body);
    }),
    defineEndpoint("/v1/customer-portal/license-keys/activate", { method: "POST", body: activateBody, response: LicenseKeyActivationRead, summary: "Activate a license key, from the customer's software", tag: PORTAL_TAG }, async ({ body, req }) => {
      await limited(req, "activate");
      return activate(body);
    }),
    defineEndpoint("/v1/customer-portal/license-keys/deactivate", { method: "POST", status: 204, body: deactivateBody, summary: "Deactivate a license key, from the customer's software", tag: PORTAL_TAG }, async ({ body, req }) => {
      await limited(req, "deactivate");
      return deactivate(body);
    }),
  ];
}
