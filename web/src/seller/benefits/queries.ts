import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { createBenefit, deleteBenefit, getBenefit, listFiles, updateBenefit, type BenefitChange, type BenefitType } from "./benefits-api";

/** Every benefits query sits under `all` (the product form's picker too), so a change refreshes each of them. */
export const benefitKeys = {
  all: ["benefits"] as const,
  list: (organizationId: string, filter: { type: BenefitType | ""; search: string }) => [...benefitKeys.all, "list", organizationId, filter] as const,
  detail: (id: string) => [...benefitKeys.all, "detail", id] as const,
  /** The benefits that issue license keys, which the license key list filters by. */
  licenseKeys: (organizationId: string) => [...benefitKeys.all, "license_keys", organizationId] as const,
};

export const benefitQuery = (id: string) => queryOptions({ queryKey: benefitKeys.detail(id), queryFn: () => getBenefit(id) });

/** The names and sizes of a download benefit's files. */
export const downloadableFiles = (organizationId: string, ids: string[]) => queryOptions({ queryKey: ["files", organizationId, ids], queryFn: () => listFiles(organizationId, ids) });

export const useCreateBenefit = () => useChange(({ organizationId, change }: { organizationId: string; change: BenefitChange }) => createBenefit(organizationId, change), () => [benefitKeys.all]);
export const useUpdateBenefit = () => useChange(({ id, change }: { id: string; change: BenefitChange }) => updateBenefit(id, change), () => [benefitKeys.all]);
export const useDeleteBenefit = () => useChange(deleteBenefit, () => [benefitKeys.all]);
