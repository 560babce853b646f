import { z } from "zod";
import { defineEndpoint, notFound, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { activationJson, licenseKeyJson, licenseKeyWithActivationsJson } from "./output.js";
import {
  activateLicenseKey,
  changeLicenseKey,
  deactivateLicenseKey,
  findActivation,
  findLicenseKey,
  licenseKeysWithCustomers,
  licenseKeyWithActivations,
  licenseKeyWithCustomer,
  pageOfLicenseKeys,
  rotateLicenseKey,
  validateLicenseKey,
} from "./service.js";
import { LicenseKeyActivate, LicenseKeyActivationCreated, LicenseKeyActivationRead, LicenseKeyDeactivate, LicenseKeyList, LicenseKeyListQuery, LicenseKeyRead, LicenseKeyUpdate, LicenseKeyValidate, LicenseKeyWithActivations, ValidatedLicenseKey } from "./schemas.js";
import type { Parts } from "../parts.js";

const TAG = "license_keys";
const PORTAL_TAG = "customer_portal";

/**
 * License keys: the seller reads and adjusts them; the seller's backend (with a token) or the
 * customer's software (through the customer portal paths, without one; the gateway limits those per
 * address) validates, activates and deactivates them.
 */
export function licenseKeyEndpoints({ db, access }: Pick<Parts, "db" | "access">): Endpoint[] {
  const seller = async (identity: IdentityClaims, organizationId: string) => access.organizationFor(identity, "license_keys:write", organizationId);
  const key = async (identity: IdentityClaims, scope: "license_keys:read" | "license_keys:write", id: string) => reachable(access, identity, scope, await findLicenseKey(db, id), "License key");

  return [
    defineEndpoint(
      "/v1/license-keys/",
      {
        method: "GET",
        query: LicenseKeyListQuery,
        response: LicenseKeyList,
        summary: "List license keys",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const organizationIds = await access.organizationIds(identity, "license_keys:read");
        const { rows, total } = await pageOfLicenseKeys(db, { ...query, organizationIds }, { ...query, sort: query.sorting });
        return pageJson((await licenseKeysWithCustomers(db, rows)).map(licenseKeyJson), total, query.limit);
      },
    ),
    defineEndpoint("/v1/license-keys/validate", { method: "POST", body: LicenseKeyValidate, response: ValidatedLicenseKey, summary: "Validate a license key", tag: TAG }, async ({ body, identity }) =>
      validateLicenseKey(db, { ...body, organization_id: await seller(identity, body.organization_id) }),
    ),
    defineEndpoint("/v1/license-keys/activate", { method: "POST", body: LicenseKeyActivate, response: LicenseKeyActivationCreated, summary: "Activate a license key", tag: TAG }, async ({ body, identity }) =>
      activateLicenseKey(db, { ...body, organization_id: await seller(identity, body.organization_id) }),
    ),
    defineEndpoint("/v1/license-keys/deactivate", { method: "POST", status: 204, body: LicenseKeyDeactivate, summary: "Deactivate a license key", tag: TAG }, async ({ body, identity }) =>
      deactivateLicenseKey(db, { ...body, organization_id: await seller(identity, body.organization_id) }),
    ),
    defineEndpoint("/v1/license-keys/:id", { method: "GET", params: z.object({ id: z.string() }), response: LicenseKeyWithActivations, summary: "Get a license key", tag: TAG }, async ({ params, identity }) =>
      licenseKeyWithActivationsJson(await licenseKeyWithActivations(db, await key(identity, "license_keys:read", params.id))),
    ),
    defineEndpoint("/v1/license-keys/:id/rotate", { method: "POST", params: z.object({ id: z.string() }), response: LicenseKeyRead, summary: "Give a license key a new string; the old one stops validating", tag: TAG }, async ({ params, identity }) =>
      rotateLicenseKey(db, await key(identity, "license_keys:write", params.id)),
    ),
    defineEndpoint("/v1/license-keys/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: LicenseKeyUpdate, response: LicenseKeyRead, summary: "Update a license key", tag: TAG }, async ({ params, body, identity }) =>
      licenseKeyJson(await licenseKeyWithCustomer(db, await changeLicenseKey(db, await key(identity, "license_keys:write", params.id), body))),
    ),
    defineEndpoint(
      "/v1/license-keys/:id/activations/:activation_id",
      { method: "GET", params: z.object({ id: z.string(), activation_id: z.string() }), response: LicenseKeyActivationRead, summary: "Get a license key's activation", tag: TAG },
      async ({ params, identity }) => {
        const found = await key(identity, "license_keys:read", params.id);
        const activation = await findActivation(db, found.id, params.activation_id);
        if (!activation) throw notFound("License key activation");
        return { ...activationJson(activation), license_key: licenseKeyJson(await licenseKeyWithCustomer(db, found)) };
      },
    ),

    // The customer's software, with no token: the key itself is the credential.
    defineEndpoint("/v1/customer-portal/license-keys/validate", { method: "POST", body: LicenseKeyValidate, response: ValidatedLicenseKey, summary: "Validate a license key, from the customer's software", tag: PORTAL_TAG }, async ({ body }) =>
      validateLicenseKey(db, body),
    ),
    defineEndpoint("/v1/customer-portal/license-keys/activate", { method: "POST", body: LicenseKeyActivate, response: LicenseKeyActivationCreated, summary: "Activate a license key, from the customer's software", tag: PORTAL_TAG }, async ({ body }) =>
      activateLicenseKey(db, body),
    ),
    defineEndpoint("/v1/customer-portal/license-keys/deactivate", { method: "POST", status: 204, body: LicenseKeyDeactivate, summary: "Deactivate a license key, from the customer's software", tag: PORTAL_TAG }, async ({ body }) =>
      deactivateLicenseKey(db, body),
    ),
  ];
}
