import { defineMessage, useIntl } from "react-intl";
import type { LicenseKeyStatus } from "./license-keys-api";

const status = defineMessage<{ status: LicenseKeyStatus }>({
  id: "seller.licenseKey.status",
  defaultMessage: "{status, select, granted {Working} disabled {Disabled} other {Revoked}}",
});

/** A key's status in words: working, disabled (for now) or revoked (for good). */
export function LicenseKeyStatusBadge({ value }: { value: LicenseKeyStatus }) {
  const { formatMessage } = useIntl();
  return <span className={`badge${value === "granted" ? "" : " badge-danger"}`}>{formatMessage(status, { status: value })}</span>;
}
