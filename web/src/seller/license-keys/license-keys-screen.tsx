import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { createColumnHelper, getCoreRowModel, useReactTable, type SortingState } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { describeError } from "../../api/client";
import { longDate } from "../../i18n/format";
import { Alert, EmptyState, Field, Loading, Page } from "../../ui/components";
import { DataTable, Pager } from "../../ui/data-table";
import { useSeller } from "../space";
import { LicenseKeyStatusBadge } from "./license-key-status";
import { listLicenseKeyBenefits, listLicenseKeys, type LicenseKey } from "./license-keys-api";

const PAGE_SIZE = 20;

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
  const [sorting, setSorting] = useState<SortingState>([{ id: "created_at", desc: true }]);
  const [page, setPage] = useState(0);
  const query = { organizationId: seller.id, benefitId, sorting: sorting[0]?.desc === false ? "created_at" : "-created_at", page: page + 1, limit: PAGE_SIZE };
  const keys = useQuery({ queryKey: ["license-keys", query], queryFn: () => listLicenseKeys(query), placeholderData: (previous) => previous });
  const benefits = useQuery({ queryKey: ["benefits", "license_keys", seller.id], queryFn: () => listLicenseKeyBenefits(seller.id) });
  const table = useReactTable({
    data: keys.data?.data?.items ?? [],
    columns,
    state: { sorting },
    manualSorting: true,
    onSortingChange: (updater) => {
      setPage(0);
      setSorting(typeof updater === "function" ? updater(sorting) : updater);
    },
    getCoreRowModel: getCoreRowModel(),
  });
  const total = keys.data?.data?.pagination.total_count ?? 0;
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.total, { total })}>
      <div className="filters" role="search">
        <Field label={formatMessage(messages.benefit)}>
          {(ids) => (
            <select
              {...ids}
              value={benefitId}
              onChange={(event) => {
                setBenefitId(event.target.value);
                setPage(0);
              }}
            >
              <option value="">{formatMessage(messages.anyBenefit)}</option>
              {benefits.data?.data?.items.map((benefit) => (
                <option key={benefit.id} value={benefit.id}>
                  {benefit.description}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {keys.data?.error && <Alert tone="error">{describeError(keys.data.error)}</Alert>}
      {keys.isPending ? (
        <Loading message={messages.loading} />
      ) : total === 0 ? (
        <EmptyState title={formatMessage(benefitId ? messages.noMatch : messages.none)}>{!benefitId && <p>{formatMessage(messages.noneHint)}</p>}</EmptyState>
      ) : (
        <>
          <DataTable table={table} busy={keys.isFetching} />
          <Pager page={page} pages={Math.max(1, keys.data?.data?.pagination.max_page ?? 1)} onPage={setPage} />
        </>
      )}
    </Page>
  );
}
