import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { listBenefits, listCustomFields, listMeters } from "./pickers-api";
import { createProduct, getProduct, listProducts, setProductBenefits, updateProduct, type ProductQuery, type ProductUpdate } from "./products-api";

/** Every products query sits under `all`, so a change to one product refreshes each list, picker and page showing it. */
export const productKeys = {
  all: ["products"] as const,
  list: (query: Omit<ProductQuery, "sorting" | "page" | "limit">) => [...productKeys.all, "list", query] as const,
  detail: (id: string) => [...productKeys.all, "detail", id] as const,
  choices: (organizationId: string, sorting: string) => [...productKeys.all, "choices", organizationId, sorting] as const,
};

/** The seller's first hundred live products in the given order (Polar's largest page): what the filters and pickers offer. */
export const productChoices = (organizationId: string, sorting: "name" | "-created_at") =>
  queryOptions({ queryKey: productKeys.choices(organizationId, sorting), queryFn: () => listProducts({ organizationId, search: "", archived: false, sorting, page: 1, limit: 100 }) });

export const productQuery = (id: string) => queryOptions({ queryKey: productKeys.detail(id), queryFn: () => getProduct(id) });

/** What a product form picks from; each sits under its own domain's keys so that their changes refresh it. */
export const pickerKeys = {
  benefits: (organizationId: string) => ["benefits", "picker", organizationId] as const,
  customFields: (organizationId: string) => ["custom-fields", "picker", organizationId] as const,
  meters: (organizationId: string) => ["meters", "picker", organizationId] as const,
};

export const benefitPicker = (organizationId: string) => queryOptions({ queryKey: pickerKeys.benefits(organizationId), queryFn: () => listBenefits(organizationId) });
export const customFieldPicker = (organizationId: string) => queryOptions({ queryKey: pickerKeys.customFields(organizationId), queryFn: () => listCustomFields(organizationId) });
export const meterPicker = (organizationId: string) => queryOptions({ queryKey: pickerKeys.meters(organizationId), queryFn: () => listMeters(organizationId) });

export const useCreateProduct = () => useChange(createProduct, () => [productKeys.all]);
export const useUpdateProduct = () => useChange(({ id, update }: { id: string; update: ProductUpdate }) => updateProduct(id, update), () => [productKeys.all]);
export const useSetProductBenefits = () => useChange(({ id, benefits }: { id: string; benefits: string[] }) => setProductBenefits(id, benefits), () => [productKeys.all]);
