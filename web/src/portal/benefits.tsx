import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useState } from "react";
import type { ApiFailure } from "../api/auth-client";
import { Button, Card, EmptyState } from "../ui/components";
import { longDate } from "../ui/format";
import { LIST_LIMIT, portalQuery, type BenefitGrant, type Downloadable, type LicenseKey, type Listing, type PortalAccess } from "./api";
import { Unread } from "./failures";

/** Benefits granted on an account the customer connects; the portal offers no such connection yet. */
const ACCOUNT_SERVICES: Record<string, string> = { discord: "Discord", github_repository: "GitHub" };

/** Copies `text`, and says so where a screen reader hears it. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <Button variant="secondary" aria-label={label} onClick={() => void copy()}>
        Copy
      </Button>
      <span role="status" className="hint">
        {state === "copied" ? "Copied." : state === "failed" ? "Could not copy: select the key and copy it yourself." : ""}
      </span>
    </>
  );
}

function LicenseKeyView({ licenseKey }: { licenseKey: LicenseKey }) {
  if (licenseKey.status !== "granted") return <p className="muted">This license key is {licenseKey.status}, so it no longer works.</p>;
  return (
    <>
      <div className="row">
        <code className="license-key">{licenseKey.key}</code>
        <CopyButton text={licenseKey.key} label="Copy the license key" />
      </div>
      {(licenseKey.expires_at !== null || licenseKey.limit_activations !== null) && (
        <p className="hint">
          {licenseKey.expires_at !== null && `Valid until ${longDate(licenseKey.expires_at)}. `}
          {licenseKey.limit_activations !== null && `Works on up to ${licenseKey.limit_activations} ${licenseKey.limit_activations === 1 ? "device" : "devices"}.`}
        </p>
      )}
    </>
  );
}

type PortalList<Item> = UseQueryResult<Listing<Item>, ApiFailure>;

/** What one purchase gave the customer, as they can use it. */
function GrantDetails({ grant, access, keys, downloads }: { grant: BenefitGrant; access: PortalAccess; keys: PortalList<LicenseKey>; downloads: PortalList<Downloadable> }) {
  const { benefit } = grant;
  if (grant.is_revoked) return <p className="muted">This benefit has ended.</p>;
  if (grant.error) {
    const service = ACCOUNT_SERVICES[benefit.type];
    const text = grant.error.type === "account_not_connected" && service ? `This needs your ${service} account connected, which this page cannot do yet. Ask ${access.seller.name} to give you access.` : grant.error.message;
    return <p>{text}</p>;
  }
  switch (benefit.type) {
    case "license_keys": {
      if (!keys.data) return <Unread query={keys} what="your license key" access={access} />;
      const licenseKey = keys.data.items.find((candidate) => candidate.id === grant.properties.license_key_id);
      return licenseKey ? <LicenseKeyView licenseKey={licenseKey} /> : <p className="muted">Your license key is on its way.</p>;
    }
    case "downloadables": {
      if (!downloads.data) return <Unread query={downloads} what="your downloads" access={access} />;
      const files = downloads.data.items.filter((downloadable) => downloadable.benefit_id === grant.benefit_id);
      if (files.length === 0) return <p className="muted">No files to download right now.</p>;
      return (
        <ul className="list-plain">
          {files.map(({ id, file }) => (
            <li key={id}>
              <a href={file.download.url}>Download {file.name}</a>{" "}
              <span className="muted">({file.size_readable})</span>
            </li>
          ))}
        </ul>
      );
    }
    case "custom":
      return benefit.properties.note ? <p>{benefit.properties.note}</p> : null;
    default:
      return grant.is_granted ? <p className="muted">Granted.</p> : <p className="muted">Not granted yet.</p>;
  }
}

/** What the customer's purchases gave them: license keys to copy, files to download, notes from the seller. */
export function BenefitsCard({ access }: { access: PortalAccess }) {
  const grants = useQuery(portalQuery<Listing<BenefitGrant>>(access, `benefit-grants/?limit=${LIST_LIMIT}`));
  // Read beside the grants rather than after them: most purchases that grant anything grant one of these.
  const keys = useQuery(portalQuery<Listing<LicenseKey>>(access, `license-keys/?limit=${LIST_LIMIT}`));
  const downloads = useQuery(portalQuery<Listing<Downloadable>>(access, `downloadables/?limit=${LIST_LIMIT}`));
  return (
    <Card title="Benefits" description="What your purchases give you.">
      <Unread query={grants} what="your benefits" access={access} />
      {grants.data?.items.length === 0 && <EmptyState title="No benefits yet.">Benefits that come with what you buy show here.</EmptyState>}
      {grants.data && grants.data.items.length > 0 && (
        <ul className="list">
          {grants.data.items.map((grant) => (
            <li key={grant.id} className="list-block">
              <h3>{grant.benefit.description}</h3>
              <GrantDetails grant={grant} access={access} keys={keys} downloads={downloads} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
