import { defineMessages } from "react-intl";
import type { BenefitType } from "./benefits-api";

/** Each type of benefit in words. */
export const benefitTypeLabels = defineMessages({
  custom: { id: "seller.benefits.type.custom", defaultMessage: "Note for the customer" },
  license_keys: { id: "seller.benefits.type.licenseKeys", defaultMessage: "License keys" },
  downloadables: { id: "seller.benefits.type.downloadables", defaultMessage: "File downloads" },
  meter_credit: { id: "seller.benefits.type.meterCredit", defaultMessage: "Meter credits" },
  discord: { id: "seller.benefits.type.discord", defaultMessage: "Discord invite" },
  github_repository: { id: "seller.benefits.type.github", defaultMessage: "GitHub repository access" },
} satisfies Record<BenefitType, unknown>);
