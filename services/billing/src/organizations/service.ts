import type { z } from "zod";
import { invalidField, notFound, notPermitted, recordMembership, RemoteError, unauthenticated, ValidationError, type Units, type ValidationIssue } from "@tollgate/kit";
import { createOrganizationForUser, type IdentityClaims } from "@tollgate/proto";
import { announceBilling } from "../events.js";
import type { TaxRegistration } from "../taxes/calculation.js";
import { EU_ONE_STOP_SHOP, isEuCountry, RATE_SCALE, STATE_COUNTRIES, stateCode } from "../taxes/rates.js";
import { parseTaxId } from "../taxes/tax-ids.js";
import { sellerJson, subscriptionSettingsOf, taxSettingsJson } from "./output.js";
import { insertSeller, updateSeller, type SellerChanges, type SellerRow } from "./organizations.sql.js";
import type { OrganizationCreate, OrganizationUpdate, TaxSettingsUpdate } from "./schemas.js";
import type { Parts } from "../parts.js";

// The reads the routes and flows make, as the store has them: an organization by id (a deleted one too, for what it sold), a page of them.
export { findSeller, findSellerIncludingDeleted, pageOfSellers, type SellerRow } from "./organizations.sql.js";

type SellerSettings = Pick<SellerRow, "feature_settings" | "subscription_settings" | "notification_settings" | "customer_email_settings" | "customer_portal_settings">;

/** A new seller's settings: none of its own, every one at its default. */
const NEW_SELLER: SellerSettings = { feature_settings: {}, subscription_settings: {}, notification_settings: {}, customer_email_settings: {}, customer_portal_settings: {} };

/** What a seller's update changes: settings given are merged into the seller's, field by field. */
function sellerChangesOf(seller: SellerSettings, body: z.output<typeof OrganizationUpdate>): SellerChanges {
  const changes: SellerChanges = {};
  for (const column of ["avatar_url", "email", "website", "terms_of_service_url", "refund_policy_url", "country"] as const) if (body[column] !== undefined) changes[column] = body[column];
  if (body.details !== undefined) changes.details = body.details;
  if (body.socials !== undefined) changes.socials = body.socials ?? [];
  if (body.details) changes.details_submitted_at = new Date();
  if (body.default_presentment_currency) changes.default_presentment_currency = body.default_presentment_currency.toLowerCase();
  if (body.default_tax_behavior) changes.default_tax_behavior = body.default_tax_behavior;
  if (body.feature_settings) changes.feature_settings = { ...seller.feature_settings, ...body.feature_settings };
  if (body.subscription_settings) changes.subscription_settings = { ...subscriptionSettingsOf(seller), ...body.subscription_settings };
  if (body.notification_settings) changes.notification_settings = { ...seller.notification_settings, ...body.notification_settings };
  if (body.customer_email_settings) {
    const { payment_method_expiration_reminder: _neverSent, ...switches } = body.customer_email_settings;
    changes.customer_email_settings = { ...seller.customer_email_settings, ...switches };
  }
  if (body.customer_portal_settings) changes.customer_portal_settings = { ...seller.customer_portal_settings, ...body.customer_portal_settings };
  return changes;
}

/** Updates what billing keeps of a seller, announced as organization.updated. */
export async function changeSeller(units: Units, seller: SellerRow, body: z.output<typeof OrganizationUpdate>): Promise<ReturnType<typeof sellerJson>> {
  // The organization service owns the name (better-auth's organization update changes it).
  if (body.name !== undefined && body.name !== null && body.name !== seller.name) {
    throw invalidField(["name"], "Rename the organization through the organization settings (/api/auth/organization/update)", body.name);
  }
  const changes = sellerChangesOf(seller, body);
  return units.run(async (unit) => {
    const updated = await updateSeller(unit.db, seller.id, changes);
    if (!updated) throw notFound("Organization");
    const json = sellerJson(updated);
    announceBilling(unit, "organization.updated", updated.id, json);
    return json;
  });
}

/** The organization service's refusal to create an organization, in Polar's terms. */
function creationRefusal(error: unknown, slug: string): unknown {
  if (!(error instanceof RemoteError)) return error;
  switch (error.code) {
    case "ORGANIZATION_ALREADY_EXISTS":
    case "ORGANIZATION_SLUG_ALREADY_TAKEN":
      return invalidField(["slug"], "An organization with this slug already exists.", slug);
    case "UNAUTHORIZED":
      return unauthenticated();
    case "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION":
    case "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS":
      return notPermitted(error.message);
    default:
      return error;
  }
}

/**
 * Polar's create, for a signed-in user (a token is bound to its own organization, so it cannot make
 * another). The organization service, which owns organizations, creates it with the user as owner on
 * the strength of the gateway's signed `identityToken`; billing then writes its seller, with the
 * settings given as an update applies them, and the owner's membership at once, so the answer and the
 * user's next call need not wait for the events, which find both written and leave them be.
 */
export async function createSeller(
  { units, request }: Pick<Parts, "units" | "request">,
  identity: IdentityClaims,
  identityToken: string,
  body: z.output<typeof OrganizationCreate>,
): Promise<ReturnType<typeof sellerJson>> {
  if (identity.kind !== "user") throw unauthenticated();
  const { name, slug, ...settings } = body;
  const changes = sellerChangesOf(NEW_SELLER, settings);
  const { organization, owner } = await request(createOrganizationForUser, { identity: identityToken, name, slug }).catch((error: unknown) => {
    throw creationRefusal(error, slug);
  });
  return units.run(async (unit) => {
    // The seller is the organization's id, name and slug; its members' rules live in the membership projection.
    const seller = (await insertSeller(unit.db, { id: organization.id, name: organization.name, slug: organization.slug, ...changes })) ?? (await updateSeller(unit.db, organization.id, changes));
    if (!seller) throw notFound("Organization");
    await recordMembership(unit.db, { organization_id: owner.organization_id, user_id: owner.user_id, role: owner.role });
    return sellerJson(seller);
  });
}

type TaxSettingsChange = z.output<typeof TaxSettingsUpdate>;

/**
 * A seller's registrations as given, each checked: a known shape of place (a state only in the US,
 * where it is needed, and Canada), no place twice, and a rate wherever Tollgate ships none (it ships
 * the EU's standard rates).
 */
function registrationsOf(given: NonNullable<TaxSettingsChange["registrations"]>, issues: ValidationIssue[]): TaxRegistration[] {
  const seen = new Set<string>();
  return given.map((entry, index) => {
    const country = entry.country.toUpperCase();
    const state = stateCode(country, entry.state);
    const problem = (field: string, message: string, input: unknown) => issues.push({ location: "body", path: ["registrations", String(index), field], message, code: "invalid", input });
    if (state && !STATE_COUNTRIES.has(country)) problem("state", "Only US and Canadian registrations name a state or province", entry.state);
    if (country === "US" && !state) problem("state", "US sales tax is registered state by state: name the state", null);
    if (seen.has(`${country}/${state ?? ""}`)) problem("country", "This place is registered twice", entry.country);
    seen.add(`${country}/${state ?? ""}`);
    const shipped = isEuCountry(country) || country === EU_ONE_STOP_SHOP;
    if (country === EU_ONE_STOP_SHOP && entry.rate != null) problem("rate", "Under the One-Stop Shop each member state's standard rate applies: register a state of its own to set its rate", entry.rate);
    if (!shipped && entry.rate == null) problem("rate", `Tollgate knows no rate for ${country}: give the rate you charge there`, null);
    return { country, state, rate: entry.rate == null ? null : Math.round(entry.rate * (RATE_SCALE / 100)) };
  });
}

/**
 * Changes where a seller charges tax and what their invoices say of them, each field given replacing
 * the seller's. EU VAT depends on where the seller is established (a sale to a business in another
 * member state is reverse-charged), so EU registrations need the seller's country; a tax number is
 * read for that country and kept as its authority writes it. Announced as organization.updated.
 */
export async function changeTaxSettings(units: Units, seller: SellerRow, body: TaxSettingsChange): Promise<ReturnType<typeof taxSettingsJson>> {
  const issues: ValidationIssue[] = [];
  const changes: SellerChanges = {};
  if (body.country !== undefined) changes.country = body.country?.toUpperCase() ?? null;
  if (body.address !== undefined) changes.address = body.address;
  if (body.default_tax_behavior) changes.default_tax_behavior = body.default_tax_behavior;
  if (body.registrations) changes.tax_registrations = registrationsOf(body.registrations, issues);
  const country = changes.country === undefined ? seller.country : changes.country;
  const registrations = changes.tax_registrations ?? seller.tax_registrations;
  if (!country && registrations.some((entry) => isEuCountry(entry.country) || entry.country === EU_ONE_STOP_SHOP)) {
    issues.push({ location: "body", path: ["country"], message: "Say where your business is established: EU VAT depends on it", code: "missing", input: null });
  }
  const taxId = body.tax_id === undefined ? seller.tax_id : body.tax_id || null;
  if (taxId) {
    const parsed = country ? parseTaxId(taxId, country) : { problem: "Say where your business is established to give its tax ID" };
    if ("problem" in parsed) issues.push({ location: "body", path: ["tax_id"], message: parsed.problem, code: "invalid", input: taxId });
    else changes.tax_id = parsed.value;
  } else if (body.tax_id !== undefined) changes.tax_id = null;
  if (issues.length > 0) throw new ValidationError(issues);
  return units.run(async (unit) => {
    const updated = await updateSeller(unit.db, seller.id, changes);
    if (!updated) throw notFound("Organization");
    announceBilling(unit, "organization.updated", updated.id, sellerJson(updated));
    return taxSettingsJson(updated);
  });
}
