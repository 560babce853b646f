import { type Listing, request } from "../../api/client";
import type { UploadedFile } from "../../ui/file-upload";

export type Interval = "day" | "week" | "month" | "year";

interface PriceCommon {
  id: string;
  price_currency: string;
  is_archived: boolean;
}

/** What the console reads of a price (Polar's ProductPrice, by amount type). */
export type Price =
  | (PriceCommon & { amount_type: "fixed"; price_amount: number })
  | (PriceCommon & { amount_type: "custom"; minimum_amount: number; maximum_amount: number | null; preset_amount: number | null })
  | (PriceCommon & { amount_type: "free" })
  | (PriceCommon & { amount_type: "metered_unit"; unit_amount: string; cap_amount: number | null; meter_id: string; meter: { name: string } });

/** What the console reads of a benefit (Polar's Benefit): the pickers show its description and type. */
export interface Benefit {
  id: string;
  type: string;
  description: string;
}

/** What the console reads of a custom field (Polar's CustomField). */
export interface CustomField {
  id: string;
  type: string;
  slug: string;
  name: string;
}

export interface Meter {
  id: string;
  name: string;
}

/** What the console reads of a product (Polar's Product). */
export interface Product {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  modified_at: string | null;
  is_archived: boolean;
  recurring_interval: Interval | null;
  recurring_interval_count: number | null;
  trial_interval: Interval | null;
  trial_interval_count: number | null;
  metadata: Record<string, string | number | boolean>;
  prices: Price[];
  benefits: Benefit[];
  medias: UploadedFile[];
  attached_custom_fields: { custom_field_id: string; custom_field: CustomField; required: boolean }[];
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

export const getProduct = (id: string) => request<Product>(`/v1/products/${id}`);

/** A new price as the API takes it (Polar's ProductPriceCreate); on update, `{id}` keeps a live one. */
export type PriceCreate =
  | { amount_type: "fixed"; price_currency: string; price_amount: number }
  | { amount_type: "custom"; price_currency: string; minimum_amount: number; preset_amount: number | null }
  | { amount_type: "free"; price_currency: string }
  | { amount_type: "metered_unit"; price_currency: string; meter_id: string; unit_amount: string; cap_amount: number | null };

/** The fields a seller sets on a product, new or changed (Polar's ProductCreate and ProductUpdate share them). */
export interface ProductDetails {
  name: string;
  description: string | null;
  recurring_interval: Interval | null;
  recurring_interval_count: number | null;
  trial_interval: Interval | null;
  trial_interval_count: number | null;
  medias: string[];
  attached_custom_fields: { custom_field_id: string; required: boolean }[];
  metadata: Record<string, unknown>;
}

export type ProductCreate = ProductDetails & { organization_id: string; prices: PriceCreate[] };
export type ProductUpdate = Partial<ProductDetails> & { prices?: (PriceCreate | { id: string })[]; is_archived?: boolean };

export const createProduct = (body: ProductCreate) => request<Product>("/v1/products/", { method: "POST", body });
export const updateProduct = (id: string, body: ProductUpdate) => request<Product>(`/v1/products/${id}`, { method: "PATCH", body });
export const setProductBenefits = (id: string, benefits: string[]) => request<Product>(`/v1/products/${id}/benefits`, { method: "POST", body: { benefits } });

/** The pickers offer the first hundred of each (Polar's largest page), which is all a seller has in practice. */
const firstPage = (organizationId: string, sorting: string) => new URLSearchParams({ organization_id: organizationId, limit: "100", sorting }).toString();
export const listBenefits = (organizationId: string) => request<Listing<Benefit>>(`/v1/benefits/?${firstPage(organizationId, "description")}`);
export const listCustomFields = (organizationId: string) => request<Listing<CustomField>>(`/v1/custom-fields/?${firstPage(organizationId, "name")}`);
export const listMeters = (organizationId: string) => request<Listing<Meter>>(`/v1/meters/?${firstPage(organizationId, "name")}&is_archived=false`);

/** A checkout for the product alone, as a buyer would get it: its `url` is the hosted checkout page. */
export const createCheckout = (productId: string) => request<{ id: string; url: string }>("/v1/checkouts/", { method: "POST", body: { products: [productId] } });
