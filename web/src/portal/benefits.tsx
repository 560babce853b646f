import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { ApiFailure } from "../api/client";
import { longDate } from "../i18n/format";
import { Card, EmptyState } from "../ui/components";
import { CopyButton } from "../ui/copy-button";
import { portalQuery } from "./queries";
import { LIST_LIMIT, type BenefitGrant, type Downloadable, type LicenseKey, type Listing, type PortalAccess } from "./api";
import { failureText } from "./failures";
import { QueryState } from "../ui/query-state";

const messages = defineMessages({
  keyNotGranted: defineMessage<{ status: string }>({
    id: "portal.benefits.keyNotGranted",
    defaultMessage: "This license key is {status, select, revoked {revoked} disabled {disabled} other {{status}}}, so it no longer works.",
  }),
  copyKey: { id: "portal.benefits.copyKey", defaultMessage: "Copy the license key" },
  validUntil: defineMessage<{ date: string }>({ id: "portal.benefits.validUntil", defaultMessage: "Valid until {date}." }),
  devices: defineMessage<{ count: number }>({ id: "portal.benefits.devices", defaultMessage: "{count, plural, one {Works on up to # device.} other {Works on up to # devices.}}" }),
  ended: { id: "portal.benefits.ended", defaultMessage: "This benefit has ended." },
  needsAccount: defineMessage<{ service: string; seller: string }>({
    id: "portal.benefits.needsAccount",
    defaultMessage: "This needs your {service} account connected, which this page cannot do yet. Ask {seller} to give you access.",
  }),
  loadingKey: { id: "portal.benefits.loadingKey", defaultMessage: "Loading your license key…" },
  keyOnItsWay: { id: "portal.benefits.keyOnItsWay", defaultMessage: "Your license key is on its way." },
  loadingDownloads: { id: "portal.benefits.loadingDownloads", defaultMessage: "Loading your downloads…" },
  noFiles: { id: "portal.benefits.noFiles", defaultMessage: "No files to download right now." },
  download: defineMessage<{ file: string }>({ id: "portal.benefits.download", defaultMessage: "Download {file}" }),
  granted: { id: "portal.benefits.granted", defaultMessage: "Granted." },
  notGranted: { id: "portal.benefits.notGranted", defaultMessage: "Not granted yet." },
  title: { id: "portal.benefits.title", defaultMessage: "Benefits" },
  description: { id: "portal.benefits.description", defaultMessage: "What your purchases give you." },
  loading: { id: "portal.benefits.loading", defaultMessage: "Loading your benefits…" },
  none: { id: "portal.benefits.none", defaultMessage: "No benefits yet." },
  noneHint: { id: "portal.benefits.noneHint", defaultMessage: "Benefits that come with what you buy show here." },
});

/** Benefits granted on an account the customer connects; the portal offers no such connection yet. */
const ACCOUNT_SERVICES: Record<string, string> = { discord: "Discord", github_repository: "GitHub" };

function LicenseKeyView({ licenseKey }: { licenseKey: LicenseKey }) {
  const { formatMessage } = useIntl();
  if (licenseKey.status !== "granted") return <p className="muted">{formatMessage(messages.keyNotGranted, { status: licenseKey.status })}</p>;
  return (
    <>
      <div className="row">
        <code className="license-key">{licenseKey.key}</code>
        <CopyButton text={licenseKey.key} label={formatMessage(messages.copyKey)} />
      </div>
      {(licenseKey.expires_at !== null || licenseKey.limit_activations !== null) && (
        <p className="hint">
          {licenseKey.expires_at !== null && `${formatMessage(messages.validUntil, { date: longDate(licenseKey.expires_at) })} `}
          {licenseKey.limit_activations !== null && formatMessage(messages.devices, { count: licenseKey.limit_activations })}
        </p>
      )}
    </>
  );
}

type PortalList<Item> = UseQueryResult<Listing<Item>, ApiFailure>;

/** What one purchase gave the customer, as they can use it. */
function GrantDetails({ grant, access, keys, downloads }: { grant: BenefitGrant; access: PortalAccess; keys: PortalList<LicenseKey>; downloads: PortalList<Downloadable> }) {
  const { formatMessage } = useIntl();
  const { benefit } = grant;
  if (grant.is_revoked) return <p className="muted">{formatMessage(messages.ended)}</p>;
  if (grant.error) {
    const service = ACCOUNT_SERVICES[benefit.type];
    // The API's own message otherwise: it comes from the benefit's service, in English for now.
    const text = grant.error.type === "account_not_connected" && service ? formatMessage(messages.needsAccount, { service, seller: access.seller.name }) : grant.error.message;
    return <p>{text}</p>;
  }
  switch (benefit.type) {
    case "license_keys": {
      // The grant's own type is known only through its benefit's, so its properties are checked for the key.
      const keyId = "license_key_id" in grant.properties ? grant.properties.license_key_id : undefined;
      return (
        <QueryState query={keys} loading={messages.loadingKey} failure={(error) => failureText(error)}>
          {({ items }) => {
            const licenseKey = items.find((candidate) => candidate.id === keyId);
            return licenseKey ? <LicenseKeyView licenseKey={licenseKey} /> : <p className="muted">{formatMessage(messages.keyOnItsWay)}</p>;
          }}
        </QueryState>
      );
    }
    case "downloadables":
      return (
        <QueryState
          query={downloads}
          loading={messages.loadingDownloads}
          failure={(error) => failureText(error)}
          isEmpty={({ items }) => !items.some((downloadable) => downloadable.benefit_id === grant.benefit_id)}
          empty={<p className="muted">{formatMessage(messages.noFiles)}</p>}
        >
          {({ items }) => (
            <ul className="list-plain">
              {items
                .filter((downloadable) => downloadable.benefit_id === grant.benefit_id)
                .map(({ id, file }) => (
                  <li key={id}>
                    <a href={file.download.url}>{formatMessage(messages.download, { file: file.name })}</a> <span className="muted">({file.size_readable})</span>
                  </li>
                ))}
            </ul>
          )}
        </QueryState>
      );
    case "custom":
      return benefit.properties.note ? <p>{benefit.properties.note}</p> : null;
    default:
      return <p className="muted">{formatMessage(grant.is_granted ? messages.granted : messages.notGranted)}</p>;
  }
}

/** What the customer's purchases gave them: license keys to copy, files to download, notes from the seller. */
export function BenefitsCard({ access }: { access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const grants = useQuery(portalQuery<Listing<BenefitGrant>>(access, `benefit-grants/?limit=${LIST_LIMIT}`));
  // Read beside the grants rather than after them: most purchases that grant anything grant one of these.
  const keys = useQuery(portalQuery<Listing<LicenseKey>>(access, `license-keys/?limit=${LIST_LIMIT}`));
  const downloads = useQuery(portalQuery<Listing<Downloadable>>(access, `downloadables/?limit=${LIST_LIMIT}`));
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <QueryState
        query={grants}
        loading={messages.loading}
        failure={(error) => failureText(error)}
        isEmpty={(listing) => listing.items.length === 0}
        empty={<EmptyState title={formatMessage(messages.none)}>{formatMessage(messages.noneHint)}</EmptyState>}
      >
        {(listing) => (
          <ul className="list">
            {listing.items.map((grant) => (
              <li key={grant.id} className="list-block">
                <h3>{grant.benefit.description}</h3>
                <GrantDetails grant={grant} access={access} keys={keys} downloads={downloads} />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Card>
  );
}
