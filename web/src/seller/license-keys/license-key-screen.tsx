import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { failureIn } from "../../api/client";
import { QueryState } from "../../ui/query-state";
import { longDate, longDateTime } from "../../i18n/format";
import { Alert, Button, Card, EmptyState, Page } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { useSeller } from "../space";
import { LicenseKeyLimits } from "./license-key-limits";
import { LicenseKeyStatusBadge } from "./license-key-status";
import { licenseKeyQuery, useSetLicenseKeyStatus } from "./queries";
import { type Activation, type LicenseKeyPageData, type LicenseKey, type LicenseKeyStatus } from "./license-keys-api";

const messages = defineMessages({
  loading: { id: "seller.licenseKey.loading", defaultMessage: "Loading the license key…" },
  back: { id: "seller.licenseKey.back", defaultMessage: "All license keys" },
  title: { id: "seller.licenseKey.title", defaultMessage: "License key" },
  customer: { id: "seller.licenseKey.customer", defaultMessage: "Customer" },
  statusLabel: { id: "seller.licenseKey.statusLabel", defaultMessage: "Status" },
  validations: { id: "seller.licenseKey.validations", defaultMessage: "Validations" },
  lastValidated: defineMessage<{ count: number; date: string }>({ id: "seller.licenseKey.lastValidated", defaultMessage: "{count, plural, one {# validation, last on {date}} other {# validations, last on {date}}}" }),
  neverValidated: { id: "seller.licenseKey.neverValidated", defaultMessage: "Never validated" },
  expires: { id: "seller.licenseKey.expires", defaultMessage: "Works until" },
  noExpiry: { id: "seller.licenseKey.noExpiry", defaultMessage: "No end date" },
  access: { id: "seller.licenseKey.access", defaultMessage: "Access" },
  accessGranted: { id: "seller.licenseKey.accessGranted", defaultMessage: "The key works. Disable it to stop it for now, or revoke it for good." },
  accessDisabled: { id: "seller.licenseKey.accessDisabled", defaultMessage: "The key is disabled: validations fail until it is enabled again." },
  accessRevoked: { id: "seller.licenseKey.accessRevoked", defaultMessage: "The key is revoked and no longer works." },
  disable: { id: "seller.licenseKey.disable", defaultMessage: "Disable" },
  enable: { id: "seller.licenseKey.enable", defaultMessage: "Enable" },
  revoke: { id: "seller.licenseKey.revoke", defaultMessage: "Revoke" },
  revokeTitle: { id: "seller.licenseKey.revokeTitle", defaultMessage: "Revoke this license key?" },
  revokeText: { id: "seller.licenseKey.revokeText", defaultMessage: "The customer's software can no longer validate or activate it." },
  activations: { id: "seller.licenseKey.activations", defaultMessage: "Activations" },
  noActivations: { id: "seller.licenseKey.noActivations", defaultMessage: "Not activated on any device yet." },
  activated: defineMessage<{ date: string }>({ id: "seller.licenseKey.activated", defaultMessage: "Activated on {date}" }),
});

/** One license key: who has it, how it is used, its devices, its limits, and whether it works. */
export function LicenseKeyScreen() {
  const { id } = useParams({ strict: false });
  const licenseKey = useQuery(licenseKeyQuery(id ?? ""));
  return (
    <QueryState query={licenseKey} loading={messages.loading}>
      {(shown) => <LicenseKeyPage shown={shown} />}
    </QueryState>
  );
}

function LicenseKeyPage({ shown }: { shown: LicenseKeyPageData }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const facts: [string, string][] = [
    [formatMessage(messages.customer), shown.customer.email],
    [formatMessage(messages.validations), shown.last_validated_at ? formatMessage(messages.lastValidated, { count: shown.validations, date: longDateTime(shown.last_validated_at) }) : formatMessage(messages.neverValidated)],
    [formatMessage(messages.expires), shown.expires_at ? longDate(shown.expires_at) : formatMessage(messages.noExpiry)],
  ];
  return (
    <Page
      title={formatMessage(messages.title)}
      description={
        <Link to="/$slug/license-keys" params={{ slug: seller.slug }}>
          {formatMessage(messages.back)}
        </Link>
      }
    >
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      <div className="stack">
        <dl className="card facts">
          <div>
            <dt>{formatMessage(messages.title)}</dt>
            <dd>
              <code translate="no">{shown.display_key}</code> <LicenseKeyStatusBadge value={shown.status} />
            </dd>
          </div>
          {facts.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {seller.mayChange && <AccessCard licenseKey={shown} />}
        <Activations activations={shown.activations} />
        {seller.mayChange && shown.status !== "revoked" && <LicenseKeyLimits licenseKey={shown} />}
      </div>
    </Page>
  );
}

/** Disable, enable again, or revoke for good after asking. */
function AccessCard({ licenseKey }: { licenseKey: LicenseKey }) {
  const { formatMessage } = useIntl();
  const statusChange = useSetLicenseKeyStatus();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setStatus = async (status: LicenseKeyStatus) => {
    const failed = await failureIn(statusChange.mutateAsync({ id: licenseKey.id, change: { status } }));
    setFailure(failed);
    return failed === null;
  };
  const toggle = async () => {
    setBusy(true);
    await setStatus(licenseKey.status === "granted" ? "disabled" : "granted");
    setBusy(false);
  };
  const said = { granted: messages.accessGranted, disabled: messages.accessDisabled, revoked: messages.accessRevoked }[licenseKey.status];
  return (
    <Card title={formatMessage(messages.access)} description={formatMessage(said)}>
      {failure && <Alert tone="error">{failure}</Alert>}
      {licenseKey.status !== "revoked" && (
        <div className="actions">
          <Button variant="secondary" busy={busy} onClick={() => void toggle()}>
            {formatMessage(licenseKey.status === "granted" ? messages.disable : messages.enable)}
          </Button>
          <ConfirmDialog
            trigger={<Button variant="danger">{formatMessage(messages.revoke)}</Button>}
            title={formatMessage(messages.revokeTitle)}
            description={formatMessage(messages.revokeText)}
            confirmLabel={formatMessage(messages.revoke)}
            onConfirm={() => setStatus("revoked")}
          />
        </div>
      )}
    </Card>
  );
}

function Activations({ activations }: { activations: Activation[] }) {
  const { formatMessage } = useIntl();
  return (
    <Card title={formatMessage(messages.activations)}>
      {activations.length === 0 ? (
        <EmptyState title={formatMessage(messages.noActivations)} />
      ) : (
        <ul className="list">
          {activations.map((activation) => (
            <li key={activation.id} className="list-row">
              <div>
                <strong>{activation.label}</strong>
                <p className="hint">{formatMessage(messages.activated, { date: longDateTime(activation.created_at) })}</p>
                {Object.keys(activation.meta).length > 0 && (
                  <code className="hint" translate="no">
                    {JSON.stringify(activation.meta)}
                  </code>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
