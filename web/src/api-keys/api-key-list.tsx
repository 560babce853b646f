import { useQuery } from "@tanstack/react-query";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { longDate, relativeTime } from "../i18n/format";
import { EmptyState } from "../ui/components";
import { DeleteAction } from "../ui/delete-action";
import { QueryState } from "../ui/query-state";
import { apiKeysQuery, useRevokeApiKey, type KeyOwner } from "./queries";

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

/** An owner's keys by name and first characters (the key itself is never shown again), when made, expiring and last used. */
export function ApiKeyList({ owner, mayRevoke }: { owner: KeyOwner; mayRevoke: boolean }) {
  const { formatMessage } = useIntl();
  const keys = useQuery(apiKeysQuery(owner));
  const revocation = useRevokeApiKey();
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
                {mayRevoke && (
                  <DeleteAction
                    label={formatMessage(messages.revoke)}
                    name={formatMessage(messages.revokeNamed, { name })}
                    title={formatMessage(messages.revokeTitle)}
                    description={formatMessage(messages.revokeText, { name })}
                    remove={() => revocation.mutateAsync(apiKey.id)}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </QueryState>
  );
}
