import type { components, paths } from "./v1-wire";

/**
 * The /v1 wire types under the names the app uses, all generated from billing's served OpenAPI
 * document (v1-wire.ts): declare none by hand, so the screens and the API cannot drift apart.
 */
type Schemas = components["schemas"];

/** The JSON body that `method` on `path` takes (Polar's `*Create`, `*Update`…, inline in the document). */
export type RequestBody<Path extends keyof paths, Method extends "post" | "patch" | "put"> = paths[Path][Method] extends {
  requestBody?: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

export type Pagination = Schemas["Pagination"];
export type Organization = Schemas["Organization"];
export type TaxSettings = Schemas["TaxSettings"];
export type AccessToken = Schemas["OrganizationAccessToken"];
export type AccessTokenCreated = Schemas["OrganizationAccessTokenCreateResponse"];
export type Product = Schemas["Product"];
export type Price = Schemas["ProductPrice"];
export type Benefit = Schemas["Benefit"];
export type CustomField = Schemas["CustomField"];
export type AttachedCustomField = Schemas["AttachedCustomField"];
export type Discount = Schemas["Discount"];
export type Customer = Schemas["Customer"];
export type CustomerState = Schemas["CustomerState"];
export type CustomerSession = Schemas["CustomerSession"];
export type Member = Schemas["Member"];
export type OrganizationLink = Schemas["OrganizationLink"];
export type LinkedOrganizationMember = Schemas["LinkedOrganizationMember"];
export type OrganizationLinkConsent = Schemas["OrganizationLinkConsent"];
export type OrganizationLinkInvitation = Schemas["OrganizationLinkInvitation"];
export type CustomerSeat = Schemas["CustomerSeat"];
export type SeatsList = Schemas["SeatsList"];
export type CustomerSessionCodeAuthenticateResponse = Schemas["CustomerSessionCodeAuthenticateResponse"];
export type SeatClaimInfo = Schemas["SeatClaimInfo"];
export type CustomerSeatClaimResponse = Schemas["CustomerSeatClaimResponse"];
export type Address = Schemas["Address"];
export type Checkout = Schemas["Checkout"];
export type CheckoutPublic = Schemas["CheckoutPublic"];
export type CheckoutPublicConfirmed = Schemas["CheckoutPublicConfirmed"];
export type CheckoutProduct = Schemas["CheckoutProduct"];
export type CheckoutLink = Schemas["CheckoutLink"];
export type Order = Schemas["Order"];
export type Refund = Schemas["Refund"];
export type Payment = Schemas["Payment"];
export type Dispute = Schemas["Dispute"];
export type Subscription = Schemas["Subscription"];
export type LicenseKey = Schemas["LicenseKeyRead"];
export type LicenseKeyWithActivations = Schemas["LicenseKeyWithActivations"];
export type LicenseKeyActivation = Schemas["LicenseKeyActivationRead"];
export type Meter = Schemas["Meter"];
export type MeterFilter = Schemas["Filter"];
export type MeterFilterClause = Schemas["FilterClause"];
export type MeterQuantities = Schemas["MeterQuantities"];
export type UsageEvent = Schemas["UserEvent"];
export type EventName = Schemas["EventName"];
export type CustomerMeter = Schemas["CustomerMeter"];
export type SubscriptionMeter = Schemas["SubscriptionMeter"];
export type MetricsResponse = Schemas["MetricsResponse"];
export type MetricsLimits = Schemas["MetricsLimits"];
export type MetricDashboard = Schemas["MetricDashboardSchema"];
export type FileRead = Schemas["FileRead"];
export type FileUpload = Schemas["FileUpload"];
export type SetAsideWork = Schemas["SetAsideWork"];
export type TestClock = Schemas["TestClock"];
export type SandboxConfirmationToken = Schemas["SandboxConfirmationToken"];
export type PaymentMethodCard = Schemas["PaymentMethodCard"];
export type CustomerOrderReceipt = Schemas["CustomerOrderReceipt"];
export type OrderReceipt = Schemas["OrderReceipt"];
export type OrderCreditNote = Schemas["OrderCreditNote"];
export type PortalPaymentProcessor = Schemas["PortalPaymentProcessor"];
export type CustomerPaymentMethodCreateResponse = Schemas["CustomerPaymentMethodCreateResponse"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookDelivery = Schemas["WebhookDelivery"];

/** The customer portal's and the buyer's own views (`/v1/customer-portal/*`, `/v1/me/*`). */
export type CustomerPortalCustomer = Schemas["CustomerPortalCustomer"];
export type CustomerOrganizationData = Schemas["CustomerOrganizationData"];
export type CustomerPortalMember = Schemas["CustomerPortalMember"];
export type PortalAuthenticatedUser = Schemas["PortalAuthenticatedUser"];
export type CustomerOrder = Schemas["CustomerOrder"];
export type CustomerSubscription = Schemas["CustomerSubscription"];
export type CustomerBenefitGrant = Schemas["CustomerBenefitGrant"];
export type Downloadable = Schemas["DownloadableRead"];
export type PurchasedOrder = Schemas["PurchasedOrder"];
export type PurchasedSubscription = Schemas["PurchasedSubscription"];
