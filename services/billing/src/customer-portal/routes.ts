import { z } from "zod";
import { defineEndpoint, HttpError, pageJson, paging, queryFlag, sorting, type Endpoint } from "@tollgate/kit";
import { liveDownloadableGrants } from "../benefits/benefits.sql.js";
import { uploadedFilesWithIds } from "../files/files.sql.js";
import { fileJson } from "../files/output.js";
import { findCustomersLicenseKey, licenseKeysWithCustomers, licenseKeyWithActivations, pageOfCustomersLicenseKeys } from "../license-keys/license-keys.sql.js";
import { licenseKeyJson, licenseKeyWithActivationsJson } from "../license-keys/output.js";
import type { FileStorage } from "../files/storage.js";
import { LicenseKeyList, LicenseKeyWithActivations } from "../license-keys/schemas.js";
import { findCustomersOrder, pageOfCustomersOrders } from "../orders/orders.sql.js";
import { cancelAtPeriodEnd, uncancel } from "../subscriptions/service.js";
import { findCustomersSubscription, pageOfCustomersSubscriptions } from "../subscriptions/subscriptions.sql.js";
import { customerOf, mine } from "./portal.js";
import { CustomerOrder, CustomerOrderList, CustomerPaymentMethodCreateSucceededResponse, CustomerSubscription, CustomerSubscriptionList, DownloadableList, PaymentMethodCreate, PortalSubscriptionUpdate } from "./schemas.js";
import { changeSubscription, customerOrders, customerSubscriptions, saveCustomerCard, type PortalDesk } from "./service.js";

const DOWNLOAD_URL_TTL_MS = 60 * 60 * 1000;
const TAG = "customer_portal";

/**
 * The customer portal's API, for a customer session (`polar_cst_…`): the customer's orders,
 * subscriptions (cancelled and resumed when the seller lets customers change them) and
 * license keys, downloadables and cards (profile.ts and benefit-grants.ts hold the rest). Products come with their seller, as Polar's portal shows them.
 */
export function customerPortalEndpoints(desk: PortalDesk & { storage: FileStorage }): Endpoint[] {
  const { db, config, storage } = desk;
  const publicUrl = config.PUBLIC_URL;

  return [
    defineEndpoint(
      "/v1/customer-portal/customers/me/payment-methods",
      {
        method: "POST",
        status: 201,
        body: PaymentMethodCreate,
        response: CustomerPaymentMethodCreateSucceededResponse,
        summary: "Save a card for the customer",
        tag: TAG,
      },
      async ({ body, identity }) => saveCustomerCard(desk, identity, body),
    ),

    defineEndpoint(
      "/v1/customer-portal/orders/",
      { method: "GET", query: z.object({ ...paging, sorting: sorting(["created_at"], "-created_at") }), response: CustomerOrderList, summary: "List the customer's orders", tag: TAG },
      async ({ query, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const { rows, total } = await pageOfCustomersOrders(db, [customerId], { ...query, sort: query.sorting });
        return pageJson(await customerOrders(desk, organizationId, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-portal/orders/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomerOrder, summary: "Get one of the customer's orders", tag: TAG }, async ({ params, identity }) => {
      const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
      const [json] = await customerOrders(desk, organizationId, [mine(await findCustomersOrder(db, params.id, customerId), "Order")]);
      return json;
    }),

    defineEndpoint(
      "/v1/customer-portal/subscriptions/",
      {
        method: "GET",
        query: z.object({ ...paging, active: queryFlag().optional(), sorting: sorting(["started_at", "created_at"], "-started_at") }),
        response: CustomerSubscriptionList,
        summary: "List the customer's subscriptions",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const { rows, total } = await pageOfCustomersSubscriptions(db, [customerId], query.active, { ...query, sort: query.sorting });
        return pageJson(await customerSubscriptions(desk, organizationId, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-portal/subscriptions/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomerSubscription, summary: "Get one of the customer's subscriptions", tag: TAG }, async ({ params, identity }) => {
      const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
      const [json] = await customerSubscriptions(desk, organizationId, [mine(await findCustomersSubscription(db, params.id, customerId), "Subscription")]);
      return json;
    }),
    defineEndpoint(
      "/v1/customer-portal/subscriptions/:id",
      { method: "PATCH", params: z.object({ id: z.string() }), body: PortalSubscriptionUpdate, response: CustomerSubscription, summary: "Cancel or resume one of the customer's subscriptions", tag: TAG },
      async ({ params, body, identity }) => {
        if (body.product_id !== undefined || body.seats !== undefined) throw new HttpError(403, "NotPermitted", "Changing plans from the portal is not offered yet.");
        return changeSubscription(desk, identity, params.id, async (unit, subscription, now) => {
          if (body.cancel_at_period_end === true && !subscription.cancel_at_period_end) return cancelAtPeriodEnd(unit, config, subscription, now, body.cancellation_reason ?? null, body.cancellation_comment ?? null);
          if (body.cancel_at_period_end === false && subscription.cancel_at_period_end) return uncancel(unit, config, subscription);
          return subscription;
        });
      },
    ),
    defineEndpoint("/v1/customer-portal/subscriptions/:id", { method: "DELETE", params: z.object({ id: z.string() }), response: CustomerSubscription, summary: "Cancel one of the customer's subscriptions", tag: TAG }, async ({ params, identity }) =>
      changeSubscription(desk, identity, params.id, async (unit, subscription, now) => {
        if (subscription.cancel_at_period_end) throw new HttpError(403, "AlreadyCanceledSubscription", "This subscription is already canceled.");
        return cancelAtPeriodEnd(unit, config, subscription, now, null, null);
      }),
    ),

    defineEndpoint(
      "/v1/customer-portal/downloadables/",
      { method: "GET", query: z.object({ ...paging, benefit_id: z.string().optional() }), response: DownloadableList, summary: "List the files the customer's grants give them", tag: TAG },
      async ({ query, identity }) => {
        const grants = await liveDownloadableGrants(db, customerOf(identity).customer_id, query.benefit_id);
        // Only while a grant lasts: each URL works for an hour.
        const expiresAt = new Date(Date.now() + DOWNLOAD_URL_TTL_MS);
        const granted = grants.flatMap((grant) => ((grant.properties as { files?: string[] }).files ?? []).map((fileId) => ({ grant, fileId })));
        const found = await uploadedFilesWithIds(db, granted.map(({ fileId }) => fileId));
        const items = await Promise.all(
          granted.flatMap(({ grant, fileId }) => {
            const file = found.find((candidate) => candidate.id === fileId);
            if (!file) return [];
            return [storage.downloadUrl(file, expiresAt).then(({ url, headers }) => ({ id: `${grant.id}_${file.id}`, benefit_id: grant.benefit_id, file: { ...fileJson(file, publicUrl), download: { url, headers, expires_at: expiresAt } } }))];
          }),
        );
        const start = (query.page - 1) * query.limit;
        return pageJson(items.slice(start, start + query.limit), items.length, query.limit);
      },
    ),

    defineEndpoint(
      "/v1/customer-portal/license-keys/",
      { method: "GET", query: z.object({ ...paging, benefit_id: z.string().optional() }), response: LicenseKeyList, summary: "List the customer's license keys", tag: TAG },
      async ({ query, identity }) => {
        const { rows, total } = await pageOfCustomersLicenseKeys(db, customerOf(identity).customer_id, query.benefit_id, query);
        return pageJson((await licenseKeysWithCustomers(db, rows)).map(licenseKeyJson), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-portal/license-keys/:id", { method: "GET", params: z.object({ id: z.string() }), response: LicenseKeyWithActivations, summary: "Get one of the customer's license keys", tag: TAG }, async ({ params, identity }) =>
      licenseKeyWithActivationsJson(await licenseKeyWithActivations(db, mine(await findCustomersLicenseKey(db, params.id, customerOf(identity).customer_id), "License key"))),
    ),
  ];
}
