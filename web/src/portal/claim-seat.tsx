import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { Alert, Button, Card, Page } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { storeToken } from "./api";
import { failureText } from "./failures";
import { seatClaimQuery, useClaimSeat } from "./queries";

const messages = defineMessages({
  title: { id: "portal.claimSeat.title", defaultMessage: "Claim your seat" },
  loading: { id: "portal.claimSeat.loading", defaultMessage: "Loading the invitation…" },
  offer: defineMessage<{ organization: string; email: string }>({ id: "portal.claimSeat.offer", defaultMessage: "{organization} has a seat for {email}. Claim it to see what it gives you in the portal." }),
  claim: { id: "portal.claimSeat.claim", defaultMessage: "Claim seat" },
  expired: { id: "portal.claimSeat.expired", defaultMessage: "This invitation has expired or was already used. Ask whoever gave you the seat to send it again." },
});

/**
 * The page a seat's claim link opens (`/{slug}/portal/claim?token=…`): it shows the product and the
 * seller, and claims the seat only when asked, then opens the portal with the member's new session.
 */
export function ClaimSeatScreen() {
  const { formatMessage } = useIntl();
  const { slug } = useParams({ from: "/$slug/portal/claim" });
  const { token = "" } = useSearch({ from: "/$slug/portal/claim" });
  const info = useQuery(seatClaimQuery(token));
  const claim = useClaimSeat();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const claimSeat = async () => {
    setProblem(null);
    try {
      const claimed = await claim.mutateAsync(token);
      storeToken(slug, claimed.customer_session_token);
      await navigate({ to: "/$slug/portal", params: { slug }, search: {} });
    } catch (reason) {
      setProblem(failureText(reason));
    }
  };
  const title = formatMessage(messages.title);
  return (
    <QueryState query={info} loading={messages.loading} failure={() => formatMessage(messages.expired)} framed={(alert) => <Page title={title}>{alert}</Page>}>
      {(seat) => (
        <Page title={title}>
          <Card title={seat.product_name} description={formatMessage(messages.offer, { organization: seat.organization_name, email: seat.customer_email })}>
            {problem && <Alert tone="error">{problem}</Alert>}
            <Button busy={claim.isPending} disabled={!seat.can_claim} onClick={() => void claimSeat()}>
              {formatMessage(messages.claim)}
            </Button>
          </Card>
        </Page>
      )}
    </QueryState>
  );
}
