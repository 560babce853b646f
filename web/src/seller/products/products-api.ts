import { request, type Listing } from "../../api/client";
import type { Checkout, Product, RequestBody } from "../../api/wire";

export type { Benefit, CustomField, Meter, Price, Product } from "../../api/wire";
export type Interval = NonNullable<Product["recurring_interval"]>;

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

export type ProductCreate = RequestBody<"/v1/products/", "post">;
export type ProductUpdate = RequestBody<"/v1/products/{id}", "patch">;
/** A new price as the API takes it (Polar's ProductPriceCreate); on update, `{id}` keeps a live one. */
export type PriceCreate = ProductCreate["prices"][number];
/** The fields a seller sets on a product, new or changed (Polar's ProductCreate and ProductUpdate share them). */
export type ProductDetails = Omit<ProductCreate, "organization_id" | "prices">;

export const createProduct = (body: ProductCreate) => request<Product>("/v1/products/", { method: "POST", body });
export const updateProduct = (id: string, body: ProductUpdate) => request<Product>(`/v1/products/${id}`, { method: "PATCH", body });
export const setProductBenefits = (id: string, benefits: string[]) => request<Product>(`/v1/products/${id}/benefits`, { method: "POST", body: { benefits } satisfies RequestBody<"/v1/products/{id}/benefits", "post"> });

/** A checkout for the product alone, as a buyer would get it: its `url` is the hosted checkout page. */
export const createCheckout = (productId: string) => request<Checkout>("/v1/checkouts/", { method: "POST", body: { products: [productId] } satisfies RequestBody<"/v1/checkouts/", "post"> });
