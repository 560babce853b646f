import { randomId, type Knex, type UnitOfWork } from "@tollgate/kit";
import { creditCustomerMeter } from "../customer-meters/customer-meters.sql.js";
import { findCustomer, type CustomerRow } from "../customers/customers.sql.js";
import { announceBilling } from "../events.js";
import { insertLicenseKey, newLicenseKey, revokeLicenseKey, type LicenseKeyRow } from "../license-keys/license-keys.sql.js";
import { displayKey } from "../license-keys/output.js";
import { productBenefits } from "../products/products.sql.js";
import { findAnyBenefit, findGrant, grantedGrantsOf, insertGrant, unrevokedGrantsOf, updateGrant, type BenefitGrantRow, type BenefitRow, type GrantSource } from "./benefits.sql.js";
import { benefitGrantJson } from "./output.js";

/** Benefits a customer can only receive once they have connected an account there. */
const NEEDS_ACCOUNT: Partial<Record<string, string>> = {
  discord: "The customer needs to connect a Discord account to receive this benefit.",
  github_repository: "The customer needs to connect a GitHub account to receive this benefit.",
};

async function announceGrant(unit: UnitOfWork, grant: BenefitGrantRow, benefit: BenefitRow, type: "benefit_grant.created" | "benefit_grant.updated" | "benefit_grant.revoked" | "benefit_grant.cycled"): Promise<void> {
  const customer = await findCustomer(unit.db, grant.customer_id);
  if (!customer) return;
  announceBilling(unit, type, customer.organization_id, benefitGrantJson(grant, customer, benefit));
}

/** What a meter credit benefit's grant records, as Polar's: the meter and units it credited, and when. */
const creditedProperties = (benefit: BenefitRow, now: Date) => ({
  last_credited_meter_id: benefit.properties.meter_id,
  last_credited_units: benefit.properties.units,
  last_credited_at: now.toISOString(),
});

/** Credits (or, negative, takes back) a meter credit grant's units on the customer's meter: a change to write with a unit's others. */
const creditFor = (db: Knex, organizationId: string, grant: Pick<BenefitGrantRow, "customer_id" | "properties">, sign: 1 | -1) =>
  creditCustomerMeter(db, { organizationId, customerId: grant.customer_id, meterId: String(grant.properties.last_credited_meter_id), units: sign * Number(grant.properties.last_credited_units) });

/** Whether the grant credited a meter (a meter credit benefit's grant, granted). */
const credits = (grant: Pick<BenefitGrantRow, "granted_at" | "properties">) => grant.granted_at !== null && typeof grant.properties.last_credited_meter_id === "string";

/**
 * What granting a benefit to a customer writes: the grant's values, and for a license key benefit
 * the key issued. A Discord or GitHub benefit is recorded ungranted, with an error saying what the
 * customer must do first.
 */
function grantOf(benefit: BenefitRow, purchase: { organizationId: string; customerId: string; now: Date }): { values: Pick<BenefitGrantRow, "granted_at" | "revoked_at" | "properties" | "error" | "modified_at">; licenseKey: LicenseKeyRow | null } {
  const needs = NEEDS_ACCOUNT[benefit.type];
  const licenseKey =
    benefit.type === "license_keys" && !needs ? newLicenseKey({ organization_id: purchase.organizationId, customer_id: purchase.customerId, benefit_id: benefit.id }, benefit.properties, purchase.now) : null;
  const properties = licenseKey
    ? { license_key_id: licenseKey.id, display_key: displayKey(licenseKey.key) }
    : benefit.type === "downloadables"
      ? { files: (benefit.properties as { files?: string[] }).files ?? [] }
      : benefit.type === "meter_credit"
        ? creditedProperties(benefit, purchase.now)
        : {};
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
export async function grantBenefits(unit: UnitOfWork, purchase: { organizationId: string; customerId: string; productId: string; now: Date } & { source: GrantSource }): Promise<void> {
  for (const benefit of await productBenefits(unit.db, purchase.productId)) {
    const existing = await findGrant(unit.db, purchase.source, benefit.id, purchase.customerId);
    if (existing && existing.revoked_at === null) continue;
    const { values, licenseKey } = grantOf(benefit, purchase);
    if (licenseKey) await insertLicenseKey(unit.db, licenseKey);
    const grant = existing
      ? await updateGrant(unit.db, existing.id, values)
      : (
          await insertGrant(unit.db, { id: randomId(32), benefit_id: benefit.id, customer_id: purchase.customerId, subscription_id: purchase.source.subscription_id ?? null, order_id: purchase.source.order_id ?? null, ...values }).returning("*")
        )[0];
    if (grant && credits(grant)) await creditFor(unit.db, purchase.organizationId, grant, 1);
    if (grant) await announceGrant(unit, grant, benefit, existing ? "benefit_grant.updated" : "benefit_grant.created");
  }
}

/**
 * Grants a new purchase its product's benefits, gathered in `unit` with their announcements. A new
 * purchase has no grants yet, so nothing is read; the caller credits the customer's meters
 * (creditNewPurchase).
 */
export function grantNewPurchase(unit: UnitOfWork, purchase: { customer: CustomerRow; benefits: BenefitRow[]; now: Date; source: GrantSource }): void {
  const { customer, source } = purchase;
  for (const benefit of purchase.benefits) {
    const { values, licenseKey } = grantOf(benefit, { organizationId: customer.organization_id, customerId: customer.id, now: purchase.now });
    const grant: BenefitGrantRow = { id: randomId(32), benefit_id: benefit.id, customer_id: customer.id, subscription_id: source.subscription_id ?? null, order_id: source.order_id ?? null, ...values, created_at: new Date() };
    if (licenseKey) unit.change(insertLicenseKey(unit.db, licenseKey));
    unit.change(insertGrant(unit.db, grant));
    announceBilling(unit, "benefit_grant.created", customer.organization_id, benefitGrantJson(grant, customer, benefit));
  }
}

/**
 * What a new purchase credits the customer's meters: the units of its meter credit benefits, and a
 * meter for each meter it bills by (`billedMeterIds`) so the customer has it from the start. One
 * upsert per meter, so two credits on one meter never write its row twice in a statement.
 */
export function creditNewPurchase(db: Knex, customer: CustomerRow, benefits: BenefitRow[], billedMeterIds: string[] = []): Knex.QueryBuilder[] {
  const creditedUnits = new Map(billedMeterIds.map((meterId) => [meterId, 0]));
  for (const benefit of benefits) {
    if (benefit.type !== "meter_credit") continue;
    const meterId = String(benefit.properties.meter_id);
    creditedUnits.set(meterId, (creditedUnits.get(meterId) ?? 0) + Number(benefit.properties.units));
  }
  return [...creditedUnits].map(([meterId, units]) => creditCustomerMeter(db, { organizationId: customer.organization_id, customerId: customer.id, meterId, units }));
}

/** Takes back what a purchase granted (its license keys stop validating, its meter credits are taken off). */
export async function revokeBenefits(unit: UnitOfWork, source: GrantSource, now: Date): Promise<void> {
  const grants = await unrevokedGrantsOf(unit.db, source);
  for (const grant of grants) {
    const revoked = await updateGrant(unit.db, grant.id, { revoked_at: now, modified_at: new Date() });
    const benefit = await findAnyBenefit(unit.db, grant.benefit_id);
    const keyId = (grant.properties as { license_key_id?: string }).license_key_id;
    if (keyId) await revokeLicenseKey(unit.db, keyId);
    if (credits(grant) && benefit) await creditFor(unit.db, benefit.organization_id, grant, -1);
    if (revoked && benefit) await announceGrant(unit, revoked, benefit, "benefit_grant.revoked");
  }
}

/** A subscription renewed: its granted benefits carry on into the new period (benefit_grant.cycled). */
export async function cycleBenefits(unit: UnitOfWork, subscriptionId: string): Promise<void> {
  const grants = await grantedGrantsOf(unit.db, { subscription_id: subscriptionId });
  for (const grant of grants) {
    const benefit = await findAnyBenefit(unit.db, grant.benefit_id);
    if (benefit) await announceGrant(unit, grant, benefit, "benefit_grant.cycled");
  }
}
