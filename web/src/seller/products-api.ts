import { request, type Listing } from "../api/client";

/** What the console reads of a price (Polar's ProductPrice, by amount type). */
export type Price =
  | { id: string; amount_type: "fixed"; price_amount: number; price_currency: string; is_archived: boolean }
  | { id: string; amount_type: "custom"; minimum_amount: number; price_currency: string; is_archived: boolean }
  | { id: string; amount_type: "free"; price_currency: string; is_archived: boolean }
  | { id: string; amount_type: "metered_unit"; unit_amount: string; price_currency: string; is_archived: boolean; meter: { name: string } };

export type Interval = "day" | "week" | "month" | "year";

/** What the console reads of a product (Polar's Product). */
export interface Product {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  is_archived: boolean;
  recurring_interval: Interval | null;
  recurring_interval_count: number | null;
  prices: Price[];
}

export interface ProductQuery {
  organizationId: string;
  search: string;
  archived: boolean;
  /** Polar's sorting: a field, with a minus for descending. */
  sorting: string;
  /** From 1, as Polar counts. */
  page: number;
  limit: number;
}

/** One page of the seller's products, searched, sorted and paged by the server. */
export function listProducts({ organizationId, search, archived, sorting, page, limit }: ProductQuery) {
  const query = new URLSearchParams({ organization_id: organizationId, is_archived: String(archived), sorting, page: String(page), limit: String(limit) });
  if (search) query.set("query", search);
  return request<Listing<Product>>(`/v1/products/?${query.toString()}`);
}

/** A new product as the form sends it (Polar's ProductCreate, one price). */
export interface ProductCreate {
  organization_id: string;
  name: string;
  description?: string;
  recurring_interval: Interval | null;
  prices: ({ amount_type: "fixed"; price_amount: number; price_currency: string } | { amount_type: "free" } | { amount_type: "custom"; price_currency: string; minimum_amount: number })[];
}

export const createProduct = (body: ProductCreate) => request<Product>("/v1/products/", { method: "POST", body });
