import { randomId, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { findCustomer, scheduleStateChange, type CustomerRow } from "../customers/customers.sql.js";
import { emitBillingEvent, type ChangeSet } from "../events.js";
import { displayKey, insertLicenseKey, licenseKeys, newLicenseKey, type LicenseKeyRow } from "../license-keys/license-keys.sql.js";
import type { BenefitRow } from "./benefits.sql.js";
import { benefitGrantJson, type BenefitGrantRow } from "./grants.js";

/** What a grant comes from: a subscription, or the order of a one-time purchase. */
export type GrantSource = { subscription_id: string; order_id?: undefined } | { order_id: string; subscription_id?: undefined };

/** Benefits a customer can only receive once they have connected an account there. */
const NEEDS_ACCOUNT: Partial<Record<string, string>> = {
  discord: "The customer needs to connect a Discord account to receive this benefit.",
  github_repository: "The customer needs to connect a GitHub account to receive this benefit.",
};

async function announceGrant(billing: Billing, trx: Knex.Transaction, grant: BenefitGrantRow, benefit: BenefitRow, type: "benefit_grant.created" | "benefit_grant.updated" | "benefit_grant.revoked" | "benefit_grant.cycled"): Promise<void> {
  const customer = await findCustomer(trx, grant.customer_id);
  if (!customer) return;
  await emitBillingEvent(billing.outbox, trx, type, customer.organization_id, benefitGrantJson(grant, customer, benefit));
  await scheduleStateChange(trx, customer.id, billing.config.CUSTOMER_STATE_DEBOUNCE_MS);
}

const grantsOf = (db: Knex, source: GrantSource) => db<BenefitGrantRow>("benefit_grants").where(source.subscription_id ? { subscription_id: source.subscription_id } : { order_id: source.order_id });

/**
 * What granting a benefit to a customer writes: the grant's values, and for a license key benefit
 * the key issued. A Discord or GitHub benefit is recorded ungranted, with an error saying what the
 * customer must do first.
 */
function grantOf(benefit: BenefitRow, purchase: { organizationId: string; customerId: string; now: Date }): { values: Pick<BenefitGrantRow, "granted_at" | "revoked_at" | "properties" | "error" | "modified_at">; licenseKey: LicenseKeyRow | null } {
  const needs = NEEDS_ACCOUNT[benefit.type];
  const licenseKey =
    benefit.type === "license_keys" && !needs ? newLicenseKey({ organization_id: purchase.organizationId, customer_id: purchase.customerId, benefit_id: benefit.id }, benefit.properties, purchase.now) : null;
  const properties = licenseKey ? { license_key_id: licenseKey.id, display_key: displayKey(licenseKey.key) } : benefit.type === "downloadables" ? { files: (benefit.properties as { files?: string[] }).files ?? [] } : {};
  return {
    values: {
      granted_at: needs ? null : purchase.now,
      revoked_at: null,
      properties,
      error: needs ? { message: needs, type: "account_not_connected", timestamp: purchase.now.toISOString() } : null,
      modified_at: new Date(),
    },
    licenseKey,
  };
}

/**
 * Grants the product's benefits for a purchase (a license key is issued, a custom benefit or
 * downloadables are granted at once). A benefit already granted for this purchase is left as it is.
 */
export async function grantBenefits(billing: Billing, trx: Knex.Transaction, purchase: { organizationId: string; customerId: string; productId: string; now: Date } & { source: GrantSource }): Promise<void> {
  const benefits = await trx<BenefitRow>("benefits")
    .join("product_benefits", "product_benefits.benefit_id", "benefits.id")
    .where({ "product_benefits.product_id": purchase.productId, "benefits.is_deleted": false })
    .orderBy("product_benefits.position")
    .select<BenefitRow[]>("benefits.*");
  for (const benefit of benefits) {
    const existing = await grantsOf(trx, purchase.source).where({ benefit_id: benefit.id, customer_id: purchase.customerId }).first();
    if (existing && existing.revoked_at === null) continue;
    const { values, licenseKey } = grantOf(benefit, purchase);
    if (licenseKey) await insertLicenseKey(trx, licenseKey);
    const [grant] = existing
      ? await trx<BenefitGrantRow>("benefit_grants").where({ id: existing.id }).update(values).returning("*")
      : await trx<BenefitGrantRow>("benefit_grants")
          .insert({ id: randomId(32), benefit_id: benefit.id, customer_id: purchase.customerId, subscription_id: purchase.source.subscription_id ?? null, order_id: purchase.source.order_id ?? null, ...values })
          .returning("*");
    if (grant) await announceGrant(billing, trx, grant, benefit, existing ? "benefit_grant.updated" : "benefit_grant.created");
  }
}

/**
 * Grants a new purchase its product's benefits, added to `changes` with their announcements. A new
 * purchase has no grants yet, so nothing is read; the caller schedules the customer's new state.
 */
export function grantNewPurchase(changes: ChangeSet, purchase: { customer: CustomerRow; benefits: BenefitRow[]; now: Date; source: GrantSource }): void {
  const { customer, source } = purchase;
  for (const benefit of purchase.benefits) {
    const { values, licenseKey } = grantOf(benefit, { organizationId: customer.organization_id, customerId: customer.id, now: purchase.now });
    const grant: BenefitGrantRow = { id: randomId(32), benefit_id: benefit.id, customer_id: customer.id, subscription_id: source.subscription_id ?? null, order_id: source.order_id ?? null, ...values, created_at: new Date() };
    if (licenseKey) changes.change(insertLicenseKey(changes.db, licenseKey));
    changes.change(changes.db("benefit_grants").insert(grant));
    changes.announce("benefit_grant.created", customer.organization_id, benefitGrantJson(grant, customer, benefit));
  }
}

/** Takes back what a purchase granted (its license keys stop validating). */
export async function revokeBenefits(billing: Billing, trx: Knex.Transaction, source: GrantSource, now: Date): Promise<void> {
  const grants = await grantsOf(trx, source).whereNull("revoked_at");
  for (const grant of grants) {
    const [revoked] = await trx<BenefitGrantRow>("benefit_grants").where({ id: grant.id }).update({ revoked_at: now, modified_at: new Date() }).returning("*");
    const benefit = await trx<BenefitRow>("benefits").where({ id: grant.benefit_id }).first();
    const keyId = (grant.properties as { license_key_id?: string }).license_key_id;
    if (keyId) await licenseKeys(trx).where({ id: keyId }).update({ status: "revoked", modified_at: new Date() });
    if (revoked && benefit) await announceGrant(billing, trx, revoked, benefit, "benefit_grant.revoked");
  }
}

/** A subscription renewed: its granted benefits carry on into the new period (benefit_grant.cycled). */
export async function cycleBenefits(billing: Billing, trx: Knex.Transaction, subscriptionId: string): Promise<void> {
  const grants = await grantsOf(trx, { subscription_id: subscriptionId }).whereNull("revoked_at").whereNotNull("granted_at");
  for (const grant of grants) {
    const benefit = await trx<BenefitRow>("benefits").where({ id: grant.benefit_id }).first();
    if (benefit) await announceGrant(billing, trx, grant, benefit, "benefit_grant.cycled");
  }
}
