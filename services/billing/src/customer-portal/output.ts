import type { BenefitGrantRow, BenefitRow } from "../benefits/benefits.sql.js";
import { benefitJson } from "../benefits/output.js";
import { subscriberProperties } from "../benefits/properties.js";
import type { CustomerRow } from "../customers/customers.sql.js";
import type { FileRow } from "../files/files.sql.js";
import { fileJson } from "../files/output.js";
import type { PartTarget } from "../files/storage.js";
import type { OrderJson } from "../orders/output.js";
import type { SellerRow } from "../organizations/organizations.sql.js";
import { sellerSummaryJson } from "../organizations/output.js";
import { paymentMethodJson } from "../payments/output.js";
import type { CardSummary } from "../payments/processor.js";
import type { PaymentMethodRow } from "../payments/payments.sql.js";
import { productJson, publicProductJson, type ProductJson } from "../products/output.js";
import type { ProductWithParts } from "../products/products.sql.js";
import type { shownSubscriptions } from "../subscriptions/service.js";
import { shownTaxId } from "../taxes/tax-ids.js";

type SubscriptionJson = Awaited<ReturnType<typeof shownSubscriptions>>[number];

const withoutMetadata = <Shown extends { metadata: unknown }>({ metadata: _metadata, ...rest }: Shown) => rest;

/** A product as the customer's portal shows it, with the seller it is from (Polar's CustomerOrderProduct). */
const portalProductJson = <Organization>(product: ProductJson, organization: Organization) => ({ ...publicProductJson(product), organization });

/**
 * An order as its customer sees it (Polar's CustomerOrder): without what is the seller's own — their
 * metadata, fees, discount bookkeeping, form answers and customer record.
 */
export function customerOrderJson<Organization>(order: OrderJson, product: ProductWithParts | undefined, organization: Organization, publicUrl: string) {
  const { metadata: _metadata, custom_field_data: _fields, customer: _customer, discount: _discount, platform_fee_amount: _fee, platform_fee_currency: _feeCurrency, subscription, ...shown } = order;
  return {
    ...shown,
    subscription: subscription ? withoutMetadata(subscription) : null,
    product: product ? portalProductJson(productJson(product, publicUrl), organization) : null,
    next_payment_attempt_at: null,
  };
}

/** A subscription as its customer sees it (Polar's CustomerSubscription), without what is the seller's own. */
export function customerSubscriptionJson<Organization>(subscription: SubscriptionJson, organization: Organization) {
  const { metadata: _metadata, custom_field_data: _fields, customer: _customer, discount: _discount, ...shown } = subscription;
  const meters = subscription.meters.map(({ meter, ...standing }) => ({ ...standing, meter: { created_at: meter.created_at, modified_at: meter.modified_at, id: meter.id, name: meter.name } }));
  return { ...shown, product: portalProductJson(subscription.product, organization), meters };
}

/** The customer as the portal shows them to themselves. */
export const portalCustomerJson = (customer: CustomerRow) => ({
  id: customer.id,
  created_at: customer.created_at,
  modified_at: customer.modified_at,
  email: customer.email,
  email_verified: customer.email_verified,
  name: customer.name,
  // Invoices carry the customer's own name until they give another.
  billing_name: customer.billing_name ?? customer.name,
  billing_address: customer.billing_address,
  tax_id: shownTaxId(customer.tax_id, customer.billing_address?.country),
  // No account connections are offered yet (see benefit grants that wait for one).
  oauth_accounts: {},
  default_payment_method_id: customer.default_payment_method_id,
  type: "individual",
  // The language the seller chose for the customer (or their checkout's), which the portal speaks.
  locale: customer.locale,
});

/** A grant as the portal shows it to its customer: the benefit as a subscriber sees it, with its seller. */
export const customerGrantJson = <Organization>(grant: BenefitGrantRow, benefit: BenefitRow, customer: CustomerRow, organization: Organization) => ({
  id: grant.id,
  created_at: grant.created_at,
  modified_at: grant.modified_at,
  granted_at: grant.granted_at,
  revoked_at: grant.revoked_at,
  is_granted: grant.granted_at !== null && grant.revoked_at === null,
  is_revoked: grant.revoked_at !== null,
  customer_id: grant.customer_id,
  member_id: grant.member_id,
  benefit_id: grant.benefit_id,
  subscription_id: grant.subscription_id,
  order_id: grant.order_id,
  error: grant.error,
  customer: portalCustomerJson(customer),
  benefit: { ...benefitJson(benefit), organization, properties: subscriberProperties(benefit.type, benefit.properties) },
  properties: grant.properties,
});

/** A card the customer saved, as Polar answers for it (CustomerPaymentMethodCreateSucceededResponse). */
/** What saving a card in the portal answers: the card kept, or the secret with which the customer's page finishes their bank's check. */
export type KeptCard = { status: "succeeded"; method: PaymentMethodRow; card: CardSummary; isDefault: boolean } | { status: "requires_action"; clientSecret: string };

export const savedCardJson = (kept: KeptCard) =>
  kept.status === "requires_action"
    ? { status: "requires_action" as const, client_secret: kept.clientSecret }
    : { status: "succeeded" as const, payment_method: { ...paymentMethodJson(kept.method, kept.isDefault ? kept.method.id : null), method_metadata: kept.card } };

/** A file one of the customer's grants gives them, with the address that fetches it until `expiresAt`. */
export const downloadableJson = (grant: Pick<BenefitGrantRow, "id" | "benefit_id">, file: FileRow, download: PartTarget & { expiresAt: Date }, publicUrl: string) => ({
  id: `${grant.id}_${file.id}`,
  benefit_id: grant.benefit_id,
  file: { ...fileJson(file, publicUrl), download: { url: download.url, headers: download.headers, expires_at: download.expiresAt } },
});

/** A seller and the products they sell in public, as the portal shows them before anyone signs in: live prices only, benefits named but not what they grant. */
export const customerOrganizationJson = (seller: SellerRow, products: ProductWithParts[], publicUrl: string) => ({
  organization: sellerSummaryJson(seller),
  products: products.map((product) => {
    const shown = publicProductJson(productJson(product, publicUrl));
    return { ...shown, prices: shown.prices.filter((price) => !price.is_archived) };
  }),
});
