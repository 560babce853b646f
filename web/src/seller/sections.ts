import * as dashboard from "./dashboard/routes";
import * as products from "./products/routes";
import * as benefits from "./benefits/routes";
import * as customFields from "./custom-fields/routes";
import * as meters from "./meters/routes";
import * as discounts from "./discounts/routes";
import * as checkoutLinks from "./checkout-links/routes";
import * as customers from "./customers/routes";
import * as orders from "./orders/routes";
import * as subscriptions from "./subscriptions/routes";
import * as licenseKeys from "./license-keys/routes";
import * as webhooks from "./webhooks/routes";
import * as accessTokens from "./access-tokens/routes";
import * as setAsideWork from "./set-aside-work/routes";
import * as settings from "./settings/routes";

/** The console's sections in the order a seller works: what is sold, who bought it, how systems hear of it, the seller's own settings. */
const SECTIONS = [dashboard, products, benefits, customFields, meters, discounts, checkoutLinks, customers, orders, subscriptions, licenseKeys, webhooks, accessTokens, setAsideWork, settings] as const;

type SellerRoute = (typeof SECTIONS)[number]["routes"][number];

/** Every console screen's route, from its folder's routes.ts: router.tsx hangs them under the seller's space. */
export const SELLER_ROUTES = SECTIONS.flatMap<SellerRoute>((section) => section.routes);

/** The sections' navigation entries, from their folders' routes.ts, in the sections' order: space-layout.tsx lists them. */
export const SELLER_NAVIGATION = SECTIONS.map((section) => section.navigation);
