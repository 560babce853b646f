import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { Field } from "../../ui/components";
import { useServerListing } from "../../ui/server-listing";
import { ListScreen } from "../console-screens";
import { useSeller } from "../space";
import { LicenseKeyStatusBadge } from "./license-key-status";
import { listLicenseKeys, type LicenseKey } from "./license-keys-api";
import { licenseKeyBenefits, licenseKeyKeys } from "./queries";

const messages = defineMessages({
  title: { id: "seller.licenseKeys.title", defaultMessage: "License keys" },
  total: defineMessage<{ total: number }>({ id: "seller.licenseKeys.total", defaultMessage: "{total, plural, one {# license key} other {# license keys}}" }),
  benefit: { id: "seller.licenseKeys.filter.benefit", defaultMessage: "Benefit" },
  anyBenefit: { id: "seller.licenseKeys.filter.anyBenefit", defaultMessage: "All license-key benefits" },
  loading: { id: "seller.licenseKeys.loading", defaultMessage: "Loading license keys…" },
  none: { id: "seller.licenseKeys.none", defaultMessage: "No license keys yet" },
  noneHint: { id: "seller.licenseKeys.noneHint", defaultMessage: "A key is made for a buyer when they buy a product with a license-key benefit." },
  noMatch: { id: "seller.licenseKeys.noMatch", defaultMessage: "No license key comes with this benefit yet." },
  key: { id: "seller.licenseKeys.column.key", defaultMessage: "Key" },
  customer: { id: "seller.licenseKeys.column.customer", defaultMessage: "Customer" },
  status: { id: "seller.licenseKeys.column.status", defaultMessage: "Status" },
  usage: { id: "seller.licenseKeys.column.usage", defaultMessage: "Usage" },
  usageOf: defineMessage<{ usage: number; limit: number }>({ id: "seller.licenseKeys.usageOf", defaultMessage: "{usage, number} of {limit, number}" }),
  created: { id: "seller.licenseKeys.column.created", defaultMessage: "Granted" },
});

function KeyLink({ licenseKey }: { licenseKey: LicenseKey }) {
  const { slug } = useSeller();
  return (
    <Link to="/$slug/license-keys/$id" params={{ slug, id: licenseKey.id }}>
      <code translate="no">{licenseKey.display_key}</code>
    </Link>
  );
}

const column = createColumnHelper<LicenseKey>();
const columns = [
  column.display({ id: "key", header: () => <FormattedMessage {...messages.key} />, cell: (info) => <KeyLink licenseKey={info.row.original} /> }),
  column.display({ id: "customer", header: () => <FormattedMessage {...messages.customer} />, cell: (info) => info.row.original.customer.email }),
  column.display({ id: "status", header: () => <FormattedMessage {...messages.status} />, cell: (info) => <LicenseKeyStatusBadge value={info.row.original.status} /> }),
  column.display({
    id: "usage",
    header: () => <FormattedMessage {...messages.usage} />,
    cell: ({ row: { original } }) => (original.limit_usage === null ? original.usage : <FormattedMessage {...messages.usageOf} values={{ usage: original.usage, limit: original.limit_usage }} />),
  }),
  column.accessor("created_at", { header: () => <FormattedMessage {...messages.created} />, cell: (info) => longDate(info.getValue()) }),
];

/** The keys the seller's license-key benefits granted, newest or oldest first, filtered by benefit. */
export function LicenseKeysScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [benefitId, setBenefitId] = useState("");
  const listing = useServerListing({
    key: licenseKeyKeys.list(seller.id, benefitId),
    load: (page) => listLicenseKeys({ organizationId: seller.id, benefitId, ...page }),
    columns,
    initialSorting: [{ id: "created_at", desc: true }],
  });
  const benefits = useQuery(licenseKeyBenefits(seller.id));
  return (
    <ListScreen
      title={formatMessage(messages.title)}
      description={formatMessage(messages.total, { total: listing.total })}
      filtered={benefitId !== ""}
      listing={listing}
      says={messages}
      filters={
        <Field label={formatMessage(messages.benefit)}>
          {(ids) => (
            <select {...ids} value={benefitId} onChange={(event) => setBenefitId(event.target.value)}>
              <option value="">{formatMessage(messages.anyBenefit)}</option>
              {benefits.data?.items.map((benefit) => (
                <option key={benefit.id} value={benefit.id}>
                  {benefit.description}
                </option>
              ))}
            </select>
          )}
        </Field>
      }
    />
  );
}
