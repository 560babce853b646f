import { defineMessages } from "react-intl";
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
import * as apiKeys from "./api-keys/routes";
import * as setAsideWork from "./set-aside-work/routes";
import * as settings from "./settings/routes";

const groups = defineMessages({
  sales: { id: "seller.space.group.sales", defaultMessage: "Sales" },
  catalog: { id: "seller.space.group.catalog", defaultMessage: "Catalog" },
  customers: { id: "seller.space.group.customers", defaultMessage: "Customers" },
  developers: { id: "seller.space.group.developers", defaultMessage: "Developers" },
  settings: { id: "seller.space.group.settings", defaultMessage: "Settings" },
});

/**
 * The console's sections, grouped as a seller works: selling, what is sold, who bought it, how their
 * systems hear of it, their settings. A new section is one import and one place in its group's list.
 */
const GROUPS = [
  { label: groups.sales, sections: [dashboard, orders, subscriptions, checkoutLinks, discounts] },
  { label: groups.catalog, sections: [products, benefits, customFields, meters, licenseKeys] },
  { label: groups.customers, sections: [customers] },
  { label: groups.developers, sections: [webhooks, accessTokens, apiKeys, setAsideWork] },
  { label: groups.settings, sections: [settings] },
] as const;

type Section = (typeof GROUPS)[number]["sections"][number];
type SellerRoute = Section["routes"][number];

/** Every console screen's route, from its folder's routes.ts: router.tsx hangs them under the seller's space. */
export const SELLER_ROUTES = GROUPS.flatMap<Section>((group) => group.sections).flatMap<SellerRoute>((section) => section.routes);

/** The navigation's groups, each with its sections' entries (from their folders' routes.ts) in order: space-layout.tsx lists them. */
export const SELLER_NAVIGATION = GROUPS.map((group) => ({ label: group.label, entries: group.sections.map((section) => section.navigation) }));
