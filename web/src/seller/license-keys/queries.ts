import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { benefitKeys } from "../benefits/queries";
import { getLicenseKey, listLicenseKeyBenefits, updateLicenseKey, type LicenseKeyUpdate } from "./license-keys-api";

/** Every license keys query sits under `all` (one key's page too), so a change refreshes the list and the key. */
export const licenseKeyKeys = {
  all: ["license-keys"] as const,
  list: (organizationId: string, benefitId: string) => [...licenseKeyKeys.all, "list", organizationId, benefitId] as const,
  detail: (id: string) => [...licenseKeyKeys.all, "detail", id] as const,
};

export const licenseKeyQuery = (id: string) => queryOptions({ queryKey: licenseKeyKeys.detail(id), queryFn: () => getLicenseKey(id) });
/** The benefits that issue keys, which the list filters by; they are benefits, so under the benefits' keys. */
export const licenseKeyBenefits = (organizationId: string) => queryOptions({ queryKey: benefitKeys.licenseKeys(organizationId), queryFn: () => listLicenseKeyBenefits(organizationId) });

const update = ({ id, change }: { id: string; change: LicenseKeyUpdate }) => updateLicenseKey(id, change);
export const useUpdateLicenseKey = () => useChange(update, () => [licenseKeyKeys.all]);
/** Enabling, disabling or revoking: refused or not, the key's page shows its status as the server has it. */
export const useSetLicenseKeyStatus = () => useChange(update, () => [licenseKeyKeys.all], { evenIfRefused: true });
