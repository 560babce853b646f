import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { LicenseKeyList, LicenseKeyRead, LicenseKeyWithActivations } from "../../license-keys/schemas.js";
import { CustomerBenefitListQuery } from "../schemas.js";
import { customerLicenseKey, customerLicenseKeyPage, rotateCustomerLicenseKey } from "../service.js";
import type { Parts } from "../../parts.js";

const TAG = "customer_portal";

/** The customer's license keys, read in the portal (the key's own checks are in license-keys/routes.ts, for the customer's software). */
export function portalLicenseKeyEndpoints({ db }: Pick<Parts, "db">): Endpoint[] {
  return [
    defineEndpoint("/v1/customer-portal/license-keys/", { method: "GET", query: CustomerBenefitListQuery, response: LicenseKeyList, summary: "List the customer's license keys", tag: TAG }, async ({ query, identity }) =>
      customerLicenseKeyPage(db, identity, query.benefit_id, query),
    ),
    defineEndpoint("/v1/customer-portal/license-keys/:id", { method: "GET", params: z.object({ id: z.string() }), response: LicenseKeyWithActivations, summary: "Get one of the customer's license keys", tag: TAG }, async ({ params, identity }) =>
      customerLicenseKey(db, identity, params.id),
    ),
    defineEndpoint("/v1/customer-portal/license-keys/:id/rotate", { method: "POST", params: z.object({ id: z.string() }), response: LicenseKeyRead, summary: "Give one of the customer's license keys a new string", tag: TAG }, async ({ params, identity }) =>
      rotateCustomerLicenseKey(db, identity, params.id),
    ),
  ];
}
