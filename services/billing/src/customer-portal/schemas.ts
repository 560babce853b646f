import { z } from "zod";
import { isoTimestamp, listResource, momentInput, paging, queryFlag, repeated, sorting, trimmedText } from "@tollgate/kit";
import { CUSTOMER_GRANT_SORTABLE } from "../benefits/benefits.sql.js";
import { BenefitGrantProperties, BenefitSubscriber, grantFields } from "../benefits/schemas.js";
import { BENEFIT_TYPES, type BenefitType } from "../benefits/properties.js";
import { addressInput } from "../http/address.js";
import { TaxId } from "../customers/schemas.js";
import { Address } from "../http/address.js";
import { FileDownload } from "../files/schemas.js";
import { Order } from "../orders/schemas.js";
import { CustomerOrganization } from "../organizations/schemas.js";
import { PaymentMethodCard } from "../payments/schemas.js";
import { CustomerProduct } from "../products/schemas.js";
import { CustomerStateSubscriptionMeter, OrderSubscription, Subscription } from "../subscriptions/schemas.js";
import { CANCELLATION_REASONS } from "../subscriptions/subscriptions.sql.js";

/** The customer as the portal shows them to themselves. */
export const CustomerPortalCustomer = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    email: z.string(),
    email_verified: z.boolean(),
    name: z.string().nullable(),
    billing_name: z.string().nullable(),
    billing_address: Address.nullable(),
    tax_id: TaxId,
    // No account connections are offered yet (see benefit grants that wait for one).
    oauth_accounts: z.strictObject({}),
    default_payment_method_id: z.string().nullable(),
    type: z.literal("individual"),
    locale: z.string().nullable(),
  })
  .meta({ id: "CustomerPortalCustomer" });

/** What a customer may change about themselves: how their invoices are addressed, not who they are. */
export const CustomerPortalCustomerUpdate = z.object({
  billing_name: z.string().trim().max(256).nullish(),
  billing_address: addressInput.nullish(),
  tax_id: trimmedText({ min: 1, max: 64 }).nullish(),
  /** One of the customer's kept cards, to charge from now on (SDK 1.x's way to choose the default). */
  default_payment_method_id: z.string().nullish(),
});

const grantOf = <Type extends BenefitType>(type: Type, id: string) =>
  z.strictObject({ ...grantFields, customer: CustomerPortalCustomer, benefit: BenefitSubscriber[type], properties: BenefitGrantProperties[type] }).meta({ id });

/** A grant as the customer sees it, told apart by its benefit's type. */
export const CustomerBenefitGrant = z
  .union([
    grantOf("custom", "CustomerBenefitGrantCustom"),
    grantOf("discord", "CustomerBenefitGrantDiscord"),
    grantOf("github_repository", "CustomerBenefitGrantGitHubRepository"),
    grantOf("downloadables", "CustomerBenefitGrantDownloadables"),
    grantOf("license_keys", "CustomerBenefitGrantLicenseKeys"),
    grantOf("meter_credit", "CustomerBenefitGrantMeterCredit"),
  ])
  .meta({ id: "CustomerBenefitGrant" });

export const CustomerBenefitGrantList = listResource(CustomerBenefitGrant, "ListResource_CustomerBenefitGrant_");

/** How the customer narrows and orders the list of their grants. */
export const CustomerBenefitGrantListQuery = z.object({
  ...paging,
  query: z.string().optional(),
  type: repeated(z.enum(BENEFIT_TYPES)),
  benefit_id: repeated(z.string()),
  checkout_id: repeated(z.string()),
  order_id: repeated(z.string()),
  subscription_id: repeated(z.string()),
  member_id: repeated(z.string()),
  sorting: sorting(Object.keys(CUSTOMER_GRANT_SORTABLE) as (keyof typeof CUSTOMER_GRANT_SORTABLE)[], "-granted_at"),
});

/** What the portal shows of a seller before anyone signs in: who they are, and what they sell in public. */
export const CustomerOrganizationData = z
  .strictObject({
    organization: CustomerOrganization,
    products: z.array(CustomerProduct),
  })
  .meta({ id: "CustomerOrganizationData" });

/** Of a seller's order or subscription, what is theirs alone and the portal leaves out. */
const SELLERS_OWN = { metadata: true, custom_field_data: true, customer: true, discount: true } as const;

export const CustomerOrder = Order.omit({ ...SELLERS_OWN, platform_fee_amount: true, platform_fee_currency: true })
  .extend({
    product: CustomerProduct.extend({ organization: CustomerOrganization }).meta({ id: "CustomerOrderProduct" }).nullable(),
    subscription: OrderSubscription.omit({ metadata: true }).meta({ id: "CustomerOrderSubscription" }).nullable(),
    // Failed payments are not retried from the portal yet.
    next_payment_attempt_at: z.null(),
  })
  .meta({ id: "CustomerOrder" });

export const CustomerOrderList = listResource(CustomerOrder, "ListResource_CustomerOrder_");

export const CustomerOrderListQuery = z.object({
  ...paging,
  product_id: repeated(z.string()),
  product_billing_type: repeated(z.enum(["one_time", "recurring"])),
  subscription_id: repeated(z.string()),
  query: z.string().optional().meta({ description: "Text in the product's or the seller's name" }),
  sorting: sorting(["created_at"], "-created_at"),
});

/** The portal names a subscription's meters by their names only. */
const CustomerSubscriptionMeter = CustomerStateSubscriptionMeter.extend({
  meter: z.strictObject({ created_at: isoTimestamp(), modified_at: isoTimestamp().nullable(), id: z.string(), name: z.string() }).meta({ id: "CustomerSubscriptionMeterMeter" }),
}).meta({ id: "CustomerSubscriptionMeter" });

export const CustomerSubscription = Subscription.omit(SELLERS_OWN)
  .extend({ product: CustomerProduct.extend({ organization: CustomerOrganization }).meta({ id: "CustomerSubscriptionProduct" }), meters: z.array(CustomerSubscriptionMeter) })
  .meta({ id: "CustomerSubscription" });

export const CustomerSubscriptionList = listResource(CustomerSubscription, "ListResource_CustomerSubscription_");

export const CustomerSubscriptionListQuery = z.object({
  ...paging,
  active: queryFlag().optional(),
  product_id: repeated(z.string()),
  query: z.string().optional().meta({ description: "Text in the product's or the seller's name" }),
  sorting: sorting(["started_at", "created_at"], "-started_at"),
});

/** A file a customer's grant gives them, with an address that fetches it for an hour. */
export const DownloadableList = listResource(
  z.strictObject({ id: z.string(), benefit_id: z.string(), file: FileDownload }).meta({ id: "DownloadableRead" }),
  "ListResource_DownloadableRead_",
);

/** The files of one benefit's grants, or of all the customer's. */
export const CustomerBenefitListQuery = z.object({ ...paging, benefit_id: z.string().optional() });

export const PaymentMethodList = listResource(PaymentMethodCard, "ListResource_CustomerPaymentMethod_");

/** A page of the customer's cards. */
export const PaymentMethodListQuery = z.object({ ...paging });

/** A page of the subscriptions the signed-in member holds a seat of. */
export const ClaimedSubscriptionListQuery = z.object({ ...paging });

export const CustomerPaymentMethodCreateSucceededResponse = z
  .strictObject({ status: z.literal("succeeded"), payment_method: PaymentMethodCard })
  .meta({ id: "CustomerPaymentMethodCreateSucceededResponse" });

/** The customer's bank wants them before the card is kept: their page finishes it with the secret, then confirms. */
export const CustomerPaymentMethodCreateRequiresActionResponse = z
  .strictObject({ status: z.literal("requires_action"), client_secret: z.string() })
  .meta({ id: "CustomerPaymentMethodCreateRequiresActionResponse" });

export const CustomerPaymentMethodCreateResponse = z
  .discriminatedUnion("status", [CustomerPaymentMethodCreateSucceededResponse, CustomerPaymentMethodCreateRequiresActionResponse])
  .meta({ id: "CustomerPaymentMethodCreateResponse" });

/** A card setup the customer's bank has checked, to keep (and maybe make their default). */
export const PaymentMethodConfirm = z.object({ setup_intent_id: z.string(), set_default: z.boolean() });

/** A card the customer gives in the portal, as a confirmation token, to keep (and maybe make their default). */
export const PaymentMethodCreate = z.object({ confirmation_token_id: z.string(), set_default: z.boolean(), return_url: z.string().optional() });

/** What a customer may change about their subscription in the portal: cancel it at the period's end, or take that back. */
export const PortalSubscriptionUpdate = z.object({
  cancel_at_period_end: z.boolean().optional(),
  cancellation_reason: z.enum(CANCELLATION_REASONS).nullish(),
  cancellation_comment: z.string().max(1_000).nullish(),
  product_id: z.string().optional(),
  seats: z.unknown().optional(),
  pause_at_period_end: z.boolean().optional(),
  resumes_at: momentInput().nullish(),
  resume: z.literal(true).optional(),
});

/** What a customer may send about one of their grants: the account a benefit is to be granted on. */
export const CustomerBenefitGrantUpdate = z.object({
  benefit_type: z.enum(BENEFIT_TYPES),
  properties: z.object({ account_id: z.string().nullish() }).optional(),
});

/** A customer asks for a code to their seller's portal, by the e-mail they bought with. */
export const CustomerSessionCodeRequest = z.object({ email: z.email(), organization_id: z.string(), customer_id: z.string().nullish() }).meta({ id: "CustomerSessionCodeRequest" });

export const CustomerSessionCodeAuthenticateRequest = z.object({ code: z.string().min(1).max(64) }).meta({ id: "CustomerSessionCodeAuthenticateRequest" });

/** The customer session token a code opened: it opens the portal as a seller's link would. */
export const CustomerSessionCodeAuthenticateResponse = z.strictObject({ token: z.string() }).meta({ id: "CustomerSessionCodeAuthenticateResponse" });

export const CustomerCustomerSession = z.strictObject({ expires_at: isoTimestamp(), return_url: z.string().nullable() }).meta({ id: "CustomerCustomerSession" });

export const PortalAuthenticatedUser = z
  .strictObject({
    type: z.string().meta({ description: "customer, or member (of a team customer)" }),
    name: z.string().nullable(),
    email: z.string(),
    customer_id: z.string(),
    member_id: z.string().nullable(),
    role: z.string().nullable(),
  })
  .meta({ id: "PortalAuthenticatedUser" });

/** What a customer's page needs to take a card: the sandbox's card fields, or Stripe.js with this publishable key. */
export const PortalPaymentProcessor = z
  .strictObject({ processor: z.enum(["sandbox", "stripe"]), publishable_key: z.string().nullable() })
  .meta({ id: "PortalPaymentProcessor" });

/** A customer's new address, to be confirmed from a link mailed to it. */
export const CustomerEmailUpdateRequest = z.object({ email: z.email() }).meta({ id: "CustomerEmailUpdateRequest" });

/** The token of the link mailed to the new address. */
export const CustomerEmailUpdateCheckQuery = z.object({ token: z.string().min(1).max(256) });

export const CustomerEmailUpdateVerifyRequest = z.object({ token: z.string().min(1).max(256) }).meta({ id: "CustomerEmailUpdateVerifyRequest" });

/** A new customer session token for the customer, now at their new address. */
export const CustomerEmailUpdateVerifyResponse = z.strictObject({ token: z.string() }).meta({ id: "CustomerEmailUpdateVerifyResponse" });

/** Polar's CustomerOrderConfirmPayment: paying an order awaiting payment with a new card (a confirmation token) or one of the customer's kept cards. */
export const CustomerOrderConfirmPayment = z
  .object({
    confirmation_token_id: z.string().nullish(),
    payment_method_id: z.string().nullish(),
    // Polar's only processor; the sandbox answers as Stripe does.
    payment_processor: z.literal("stripe").default("stripe"),
  })
  .meta({ id: "CustomerOrderConfirmPayment" });

/** Polar's CustomerOrderPaymentConfirmation: paid (`succeeded`), `failed` with the bank's words, or `requires_action` with the secret the page finishes it with. */
export const CustomerOrderPaymentConfirmation = z
  .strictObject({ status: z.enum(["succeeded", "failed", "requires_action"]), client_secret: z.string().nullable(), error: z.string().nullable() })
  .meta({ id: "CustomerOrderPaymentConfirmation" });

/** Polar's CustomerOrderPaymentStatus: what became of the order's latest charge (`no_payment` before any), with the decline's words. */
export const CustomerOrderPaymentStatus = z
  .strictObject({ status: z.enum(["no_payment", "succeeded", "failed"]), error: z.string().nullable() })
  .meta({ id: "CustomerOrderPaymentStatus" });
