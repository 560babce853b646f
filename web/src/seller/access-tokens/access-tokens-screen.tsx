import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { describeFailure } from "../../api/client";
import { longDate } from "../../i18n/format";
import { Alert, Button, EmptyState, Page } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { ServerListing, useServerListing } from "../../ui/server-listing";
import { useSeller } from "../space";
import { listAccessTokens, type AccessToken } from "./access-tokens-api";
import { accessTokenKeys, useRevokeAccessToken } from "./queries";
import { NewTokenForm } from "./new-token-form";

const messages = defineMessages({
  title: { id: "seller.accessTokens.title", defaultMessage: "Access tokens" },
  total: defineMessage<{ total: number }>({ id: "seller.accessTokens.total", defaultMessage: "{total, plural, one {# token} other {# tokens}}" }),
  loading: { id: "seller.accessTokens.loading", defaultMessage: "Loading access tokens…" },
  none: { id: "seller.accessTokens.none", defaultMessage: "No access tokens yet" },
  noneHint: { id: "seller.accessTokens.noneHint", defaultMessage: "Create one for each system that calls the API, so you can revoke one without the others." },
  comment: { id: "seller.accessTokens.column.comment", defaultMessage: "For" },
  scopes: { id: "seller.accessTokens.column.scopes", defaultMessage: "Scopes" },
  scopeCount: defineMessage<{ count: number }>({ id: "seller.accessTokens.scopeCount", defaultMessage: "{count, plural, one {# scope} other {# scopes}}" }),
  created: { id: "seller.accessTokens.column.created", defaultMessage: "Created" },
  expires: { id: "seller.accessTokens.column.expires", defaultMessage: "Expires" },
  never: { id: "seller.accessTokens.never", defaultMessage: "Never" },
  lastUsed: { id: "seller.accessTokens.column.lastUsed", defaultMessage: "Last used" },
  notUsed: { id: "seller.accessTokens.notUsed", defaultMessage: "Not yet" },
  actions: { id: "seller.accessTokens.column.actions", defaultMessage: "Actions" },
  revoke: { id: "seller.accessTokens.revoke", defaultMessage: "Revoke" },
  revokeNamed: defineMessage<{ comment: string }>({ id: "seller.accessTokens.revokeNamed", defaultMessage: "Revoke the token for {comment}" }),
  revokeTitle: { id: "seller.accessTokens.revokeTitle", defaultMessage: "Revoke this token?" },
  revokeText: defineMessage<{ comment: string }>({ id: "seller.accessTokens.revokeText", defaultMessage: "Calls made with the token for “{comment}” are refused from now on. This cannot be undone." }),
});

/** Revokes one token after asking; the list then reloads. */
function RevokeButton({ token }: { token: AccessToken }) {
  const { formatMessage } = useIntl();
  const revocation = useRevokeAccessToken();
  const [failure, setFailure] = useState<string | null>(null);
  const revoke = async () => {
    try {
      await revocation.mutateAsync(token.id);
    } catch (reason) {
      setFailure(describeFailure(reason));
      return false;
    }
    return true;
  };
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger" aria-label={formatMessage(messages.revokeNamed, { comment: token.comment })}>
          {formatMessage(messages.revoke)}
        </Button>
      }
      title={formatMessage(messages.revokeTitle)}
      description={formatMessage(messages.revokeText, { comment: token.comment })}
      confirmLabel={formatMessage(messages.revoke)}
      onConfirm={revoke}
    >
      {failure && <Alert tone="error">{failure}</Alert>}
    </ConfirmDialog>
  );
}

const column = createColumnHelper<AccessToken>();
const columns = [
  column.accessor("comment", { header: () => <FormattedMessage {...messages.comment} /> }),
  column.accessor("scopes", { enableSorting: false, header: () => <FormattedMessage {...messages.scopes} />, cell: (info) => <FormattedMessage {...messages.scopeCount} values={{ count: info.getValue().length }} /> }),
  column.accessor("created_at", { header: () => <FormattedMessage {...messages.created} />, cell: (info) => longDate(info.getValue()) }),
  column.accessor("expires_at", { enableSorting: false, header: () => <FormattedMessage {...messages.expires} />, cell: (info) => (info.getValue() ? longDate(info.getValue() ?? "") : <FormattedMessage {...messages.never} />) }),
  column.accessor("last_used_at", { header: () => <FormattedMessage {...messages.lastUsed} />, cell: (info) => (info.getValue() ? longDate(info.getValue() ?? "") : <FormattedMessage {...messages.notUsed} />) }),
];
const revokeColumn = column.display({ id: "actions", header: () => <FormattedMessage {...messages.actions} />, cell: (info) => <RevokeButton token={info.row.original} /> });

/** The organization's access tokens: a new one made and shown once, the others listed and revoked. */
export function AccessTokensScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const listing = useServerListing({
    key: accessTokenKeys.list(seller.id),
    load: (page) => listAccessTokens({ organizationId: seller.id, ...page }),
    columns: seller.mayChange ? [...columns, revokeColumn] : columns,
    initialSorting: [{ id: "created_at", desc: true }],
  });
  const { total } = listing;
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.total, { total })}>
      <div className="stack">
        {seller.readOnlyReason ? <p className="muted">{seller.readOnlyReason}</p> : <NewTokenForm />}
        <div>
          <ServerListing
            listing={listing}
            loading={messages.loading}
            empty={
              <EmptyState title={formatMessage(messages.none)}>
                <p>{formatMessage(messages.noneHint)}</p>
              </EmptyState>
            }
          />
        </div>
      </div>
    </Page>
  );
}
