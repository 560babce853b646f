import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { describeFailure } from "../api/client";
import { longDate, relativeTime } from "../i18n/format";
import { Alert, Button, EmptyState } from "../ui/components";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { QueryState } from "../ui/query-state";
import { apiKeysQuery, useRevokeApiKey, type ApiKey, type KeyOwner } from "./queries";

const messages = defineMessages({
  loading: { id: "apiKeys.loading", defaultMessage: "Loading API keys…" },
  none: { id: "apiKeys.none", defaultMessage: "No API keys yet" },
  noneHint: { id: "apiKeys.noneHint", defaultMessage: "Make one for each script or system, so you can revoke one without the others." },
  unnamed: { id: "apiKeys.unnamed", defaultMessage: "Unnamed key" },
  facts: defineMessage<{ created: string; expires: string; used: string }>({
    id: "apiKeys.facts",
    defaultMessage: "Created {created} · expires {expires} · last used {used}",
  }),
  never: { id: "apiKeys.never", defaultMessage: "never" },
  notUsed: { id: "apiKeys.notUsed", defaultMessage: "not yet" },
  revoke: { id: "apiKeys.revoke", defaultMessage: "Revoke" },
  revokeNamed: defineMessage<{ name: string }>({ id: "apiKeys.revokeNamed", defaultMessage: "Revoke the key {name}" }),
  revokeTitle: { id: "apiKeys.revokeTitle", defaultMessage: "Revoke this key?" },
  revokeText: defineMessage<{ name: string }>({ id: "apiKeys.revokeText", defaultMessage: "Calls made with “{name}” are refused from now on. This cannot be undone." }),
});

/** Revokes one key after asking; the list then reloads. */
function RevokeButton({ apiKey, name }: { apiKey: ApiKey; name: string }) {
  const { formatMessage } = useIntl();
  const revocation = useRevokeApiKey();
  const [failure, setFailure] = useState<string | null>(null);
  const revoke = async () => {
    try {
      await revocation.mutateAsync(apiKey.id);
    } catch (reason) {
      setFailure(describeFailure(reason));
      return false;
    }
    return true;
  };
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger" aria-label={formatMessage(messages.revokeNamed, { name })}>
          {formatMessage(messages.revoke)}
        </Button>
      }
      title={formatMessage(messages.revokeTitle)}
      description={formatMessage(messages.revokeText, { name })}
      confirmLabel={formatMessage(messages.revoke)}
      onConfirm={revoke}
    >
      {failure && <Alert tone="error">{failure}</Alert>}
    </ConfirmDialog>
  );
}

/** An owner's keys by name and first characters (the key itself is never shown again), when made, expiring and last used. */
export function ApiKeyList({ owner, mayRevoke }: { owner: KeyOwner; mayRevoke: boolean }) {
  const { formatMessage } = useIntl();
  const keys = useQuery(apiKeysQuery(owner));
  return (
    <QueryState
      query={keys}
      loading={messages.loading}
      isEmpty={(answer) => answer.apiKeys.length === 0}
      empty={
        <EmptyState title={formatMessage(messages.none)}>
          <p>{formatMessage(messages.noneHint)}</p>
        </EmptyState>
      }
    >
      {(answer) => (
        <ul className="list">
          {answer.apiKeys.map((apiKey) => {
            const name = apiKey.name ?? formatMessage(messages.unnamed);
            return (
              <li key={apiKey.id} className="list-row">
                <div>
                  <strong>{name}</strong>{" "}
                  <code className="muted" translate="no">
                    {apiKey.start}…
                  </code>
                  <p className="muted">
                    {formatMessage(messages.facts, {
                      created: longDate(apiKey.createdAt),
                      expires: apiKey.expiresAt ? longDate(apiKey.expiresAt) : formatMessage(messages.never),
                      used: apiKey.lastRequest ? relativeTime(apiKey.lastRequest) : formatMessage(messages.notUsed),
                    })}
                  </p>
                </div>
                {mayRevoke && <RevokeButton apiKey={apiKey} name={name} />}
              </li>
            );
          })}
        </ul>
      )}
    </QueryState>
  );
}
