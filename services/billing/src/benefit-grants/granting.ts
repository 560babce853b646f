import { randomId, type Knex, type UnitOfWork } from "@tollgate/kit";
import { creditCustomerMeter } from "../customer-meters/customer-meters.sql.js";
import { findCustomer, type CustomerRow } from "../customers/customers.sql.js";
import { announceCustomerEvent } from "../customers/announce.js";
import { insertLicenseKey, newLicenseKey, restoreLicenseKey, revokeLicenseKey, type LicenseKeyRow } from "../license-keys/license-keys.sql.js";
import { displayKey } from "../license-keys/output.js";
import { changeGrant, findAnyBenefit, grantedGrantsOf, grantsOf, insertGrant, unrevokedGrantsOf, updateGrant, type BenefitGrantRow, type BenefitRow, type GrantSource } from "../benefits/benefits.sql.js";
import { membersWithIds, type MemberRow } from "../members/members.sql.js";
import { benefitGrantJson } from "./output.js";

/** Benefits a customer can only receive once they have connected an account there. */
const NEEDS_ACCOUNT: Partial<Record<string, string>> = {
  discord: "The customer needs to connect a Discord account to receive this benefit.",
  github_repository: "The customer needs to connect a GitHub account to receive this benefit.",
};

async function announceGrant(unit: UnitOfWork, grant: BenefitGrantRow, benefit: BenefitRow, type: "benefit_grant.created" | "benefit_grant.updated" | "benefit_grant.revoked" | "benefit_grant.cycled"): Promise<void> {
  const [customer, [member]] = await Promise.all([findCustomer(unit.db, grant.customer_id), grant.member_id ? membersWithIds(unit.db, [grant.member_id]) : []]);
  if (!customer) return;
  announceCustomerEvent(unit, type, customer.organization_id, benefitGrantJson(grant, customer, benefit, member ?? null));
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

/** A downloadables benefit's files a new grant gives: those not archived, which stay with whoever was granted them before only. */
const activeFiles = ({ files = [], archived = {} }: { files?: string[]; archived?: Record<string, boolean> }) => files.filter((file) => !archived[file]);

/**
 * What granting a benefit to a customer (or one of its seat members) writes: the grant's values, and
 * for a license key benefit the key issued, held by the member. A Discord or GitHub benefit is recorded ungranted, with an error saying what the
 * customer must do first.
 */
function grantOf(benefit: BenefitRow, purchase: { organizationId: string; customerId: string; memberId: string | null; now: Date }): { values: Pick<BenefitGrantRow, "granted_at" | "revoked_at" | "properties" | "error" | "modified_at">; licenseKey: LicenseKeyRow | null } {
  const needs = NEEDS_ACCOUNT[benefit.type];
  const licenseKey =
    benefit.type === "license_keys" && !needs
      ? newLicenseKey({ organization_id: purchase.organizationId, customer_id: purchase.customerId, member_id: purchase.memberId, benefit_id: benefit.id }, benefit.properties, purchase.now)
      : null;
  const properties = licenseKey
    ? { license_key_id: licenseKey.id, display_key: displayKey(licenseKey.key) }
    : benefit.type === "downloadables"
      ? { files: activeFiles(benefit.properties) }
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

/** What a purchase grants: the customer, the benefits of what they bought, and the order or subscription that grants them. */
export interface Purchase {
  customer: CustomerRow;
  benefits: BenefitRow[];
  source: GrantSource;
  now: Date;
  /** The meters the purchase bills by: the customer has each from the start, credited or not. */
  billedMeterIds?: string[];
  /** How many seats the purchase bought; null (or absent) when it is not seat-based. */
  seats?: number | null;
  /** The members holding a seat-based purchase's claimed seats, when some may be (a subscription moved or resumed). */
  seatMembers?: MemberRow[];
  /**
   * Announces what was bought, once its meters are credited and before its benefits are granted:
   * Polar tells of a new subscription (showing its meters) before the grants it makes.
   */
  announceSource?: () => Promise<void>;
}

/**
 * What a purchase credits the customer's meters: the units of its meter credit benefits once per
 * holder of its grants (a seat's credits go to the customer who bought it, as Polar's), and a meter
 * for each meter it bills by. One upsert per meter, so two credits on one meter never write its row
 * twice in a statement.
 */
function creditsOf(db: Knex, { customer, benefits, billedMeterIds = [] }: Purchase, holders: number): Knex.QueryBuilder[] {
  const creditedUnits = new Map(billedMeterIds.map((meterId) => [meterId, 0]));
  for (const benefit of benefits) {
    if (benefit.type !== "meter_credit") continue;
    const meterId = String(benefit.properties.meter_id);
    creditedUnits.set(meterId, (creditedUnits.get(meterId) ?? 0) + holders * Number(benefit.properties.units));
  }
  return [...creditedUnits].map(([meterId, units]) => creditCustomerMeter(db, { organizationId: customer.organization_id, customerId: customer.id, meterId, units }));
}

/**
 * Credits the customer's meters, written at once (what is shown next reads them), announces the
 * source if asked, then grants the purchase its benefits, gathered in `unit` with their
 * announcements (a license key is issued, a custom benefit or downloadables are granted at once). A benefit granted before by the same source
 * (`earlier`, revoked since) is granted again on its grant.
 */
async function grantEach(unit: UnitOfWork, purchase: Purchase, holders: (MemberRow | null)[], earlier: BenefitGrantRow[]): Promise<void> {
  for (const credit of creditsOf(unit.db, purchase, holders.length)) await credit;
  await purchase.announceSource?.();
  for (const member of holders) grantTo(unit, purchase, member, earlier.filter((grant) => grant.member_id === (member?.id ?? null)));
}

/** The purchase's benefits granted to one holder (the customer, `member` null, or a seat's member), gathered in `unit`. */
function grantTo(unit: UnitOfWork, purchase: Purchase, member: MemberRow | null, earlier: BenefitGrantRow[]): void {
  const { customer, source, now } = purchase;
  for (const benefit of purchase.benefits) {
    const before = earlier.find((grant) => grant.benefit_id === benefit.id);
    // A key granted before by the same source (a paused subscription resumed, a plan moved) is the customer's again, the same string their software holds.
    const keptKeyId = benefit.type === "license_keys" ? (before?.properties as { license_key_id?: string } | undefined)?.license_key_id : undefined;
    const granted = grantOf(benefit, { organizationId: customer.organization_id, customerId: customer.id, memberId: member?.id ?? null, now });
    const values = keptKeyId && before ? { ...granted.values, properties: before.properties } : granted.values;
    if (keptKeyId) unit.change(restoreLicenseKey(unit.db, keptKeyId));
    else if (granted.licenseKey) unit.change(insertLicenseKey(unit.db, granted.licenseKey));
    if (before) unit.change(changeGrant(unit.db, before.id, values));
    const grant: BenefitGrantRow = before
      ? { ...before, ...values }
      : { id: randomId(32), benefit_id: benefit.id, customer_id: customer.id, member_id: member?.id ?? null, subscription_id: source.subscription_id ?? null, order_id: source.order_id ?? null, ...values, created_at: new Date() };
    if (!before) unit.change(insertGrant(unit.db, grant));
    announceCustomerEvent(unit, before ? "benefit_grant.updated" : "benefit_grant.created", customer.organization_id, benefitGrantJson(grant, customer, benefit, member));
  }
}

/**
 * Whom a purchase grants its benefits: the customer who bought it, or — a seat-based purchase — each
 * member holding one of its claimed seats, never the buying customer as a whole (a new one has none
 * claimed yet: its seats grant as they are claimed, `grantSeat`).
 */
const holdersOf = (purchase: Purchase): (MemberRow | null)[] => (purchase.seats === null || purchase.seats === undefined ? [null] : (purchase.seatMembers ?? []));

/** A new purchase (an order paid, a subscription started): its meters credited and benefits granted. A new source has no grants yet, so none are read. */
export const grantPurchase = (unit: UnitOfWork, purchase: Purchase): Promise<void> => grantEach(unit, purchase, holdersOf(purchase), []);

/**
 * A seat claimed: the purchase's benefits granted to its member (meter credits to the customer who
 * bought it), on the grants the member had of it before if their seat was given back and given again.
 */
export async function grantSeat(unit: UnitOfWork, purchase: Omit<Purchase, "billedMeterIds" | "announceSource" | "seats" | "seatMembers">, member: MemberRow): Promise<void> {
  await grantEach(unit, purchase, [member], await grantsOf(unit.db, purchase.source));
}

/**
 * A purchase that now grants other benefits (a subscription moved to another product): what it
 * granted is taken back, then the new benefits are granted as for a new purchase, on the grants of
 * benefits it granted before.
 */
export async function regrantPurchase(unit: UnitOfWork, purchase: Purchase): Promise<void> {
  await revokeBenefits(unit, purchase.source, purchase.now);
  await grantEach(unit, purchase, holdersOf(purchase), await grantsOf(unit.db, purchase.source));
}

/**
 * Takes back what a purchase granted (its license keys stop validating, its meter credits are taken
 * off): all of it, or only what a seat's member held when one is named (the seat given back).
 */
export async function revokeBenefits(unit: UnitOfWork, source: GrantSource, now: Date, member?: MemberRow): Promise<void> {
  const grants = await unrevokedGrantsOf(unit.db, source, member?.id);
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
