import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { describeFailure } from "../../api/client";
import { Alert, Button, Card, EmptyState } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { LinkSummary } from "../../ui/linked-members";
import { QueryState } from "../../ui/query-state";
import { TeamMembers, type MemberChanges } from "../../ui/team-members";
import { TeamSeats, type SeatChanges } from "../../ui/team-seats";
import { useSeller } from "../space";
import type { SeatHolder } from "./api";
import { membersQuery, organizationLinkQuery, seatHoldersQuery, seatsQuery, useAddMember, useAskOrganizationLink, useAssignSeat, useEndOrganizationLink, useRemoveMember, useResendSeat, useRevokeSeat, useUpdateMember } from "./queries";

const messages = defineMessages({
  members: { id: "seller.customer.team.members", defaultMessage: "Members" },
  membersText: { id: "seller.customer.team.membersText", defaultMessage: "The people of this team. Each signs in to the portal on their own; the owner and billing managers manage the team there too." },
  loadingMembers: { id: "seller.customer.team.loadingMembers", defaultMessage: "Loading the members…" },
  seats: { id: "seller.customer.team.seats", defaultMessage: "Seats" },
  seatsText: { id: "seller.customer.team.seatsText", defaultMessage: "Each seat-based purchase of this team, and who holds its seats. An invited person claims their seat from the e-mail they get." },
  loadingSeats: { id: "seller.customer.team.loadingSeats", defaultMessage: "Loading the seats…" },
  noSeats: { id: "seller.customer.team.noSeats", defaultMessage: "No seat-based purchase yet." },
});

/** A team customer's members: the seller adds them, changes their roles and removes them. */
export function TeamMembersCard({ customerId }: { customerId: string }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const members = useQuery(membersQuery(customerId));
  const add = useAddMember();
  const update = useUpdateMember();
  const remove = useRemoveMember();
  const changes: MemberChanges = {
    add: (fields) => add.mutateAsync({ customerId, fields }),
    changeRole: (member, role) => update.mutateAsync({ customerId, memberId: member.id, change: { role } }),
    remove: (member) => remove.mutateAsync({ customerId, memberId: member.id }),
  };
  return (
    <Card title={formatMessage(messages.members)} description={formatMessage(messages.membersText)}>
      <QueryState query={members} loading={messages.loadingMembers}>
        {({ items }) => <TeamMembers members={items} changes={seller.mayChange ? changes : undefined} />}
      </QueryState>
    </Card>
  );
}

/** A team customer's seats, purchase by purchase. */
export function TeamSeatsCard({ customerId }: { customerId: string }) {
  const { formatMessage } = useIntl();
  const holders = useQuery(seatHoldersQuery(customerId));
  return (
    <Card title={formatMessage(messages.seats)} description={formatMessage(messages.seatsText)}>
      <QueryState query={holders} loading={messages.loadingSeats} isEmpty={(list) => list.length === 0} empty={<EmptyState title={formatMessage(messages.noSeats)} />}>
        {(list) => list.map((holder) => <HolderSeats key={holder.holderId} holder={holder} />)}
      </QueryState>
    </Card>
  );
}

function HolderSeats({ holder }: { holder: SeatHolder }) {
  const seller = useSeller();
  const seats = useQuery(seatsQuery(holder));
  const assign = useAssignSeat();
  const resend = useResendSeat();
  const revoke = useRevokeSeat();
  const changes: SeatChanges = {
    assign: (email) => assign.mutateAsync({ holder, email }),
    resend: (seat) => resend.mutateAsync(seat.id),
    revoke: (seat) => revoke.mutateAsync(seat.id),
  };
  return (
    <section className="team-holder">
      <h3>{holder.productName}</h3>
      <QueryState query={seats} loading={messages.loadingSeats}>
        {(list) => <TeamSeats product={holder.productName} seats={list} changes={seller.mayChange ? changes : undefined} />}
      </QueryState>
    </section>
  );
}

/**
 * Whether the team's seats follow one of the buyer's Tollgate organizations: the seller offers it
 * (the team's owner then consents in the portal), sees who holds the seats, and may end it.
 */
export function OrganizationLinkCard({ customerId }: { customerId: string }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const link = useQuery(organizationLinkQuery(customerId));
  const ask = useAskOrganizationLink();
  const end = useEndOrganizationLink();
  const [failure, setFailure] = useState<string | null>(null);
  /** Whether the change went through; a refusal is shown on the card. */
  const act = async (change: Promise<unknown>): Promise<boolean> => {
    setFailure(null);
    try {
      await change;
      return true;
    } catch (reason) {
      setFailure(describeFailure(reason));
      return false;
    }
  };
  return (
    <Card title={formatMessage(linkMessages.title)} description={formatMessage(linkMessages.text)}>
      <QueryState query={link} loading={linkMessages.loading}>
        {(asked) => (
          <>
            {asked && <LinkSummary link={asked} />}
            {failure && <Alert tone="error">{failure}</Alert>}
            {seller.mayChange && (
              <div className="actions">
                {asked ? (
                  <ConfirmDialog
                    trigger={<Button variant="secondary">{formatMessage(linkMessages.end)}</Button>}
                    title={formatMessage(linkMessages.endTitle)}
                    description={formatMessage(linkMessages.endText)}
                    confirmLabel={formatMessage(linkMessages.end)}
                    onConfirm={() => act(end.mutateAsync(customerId))}
                  />
                ) : (
                  <Button busy={ask.isPending} onClick={() => void act(ask.mutateAsync(customerId))}>
                    {formatMessage(linkMessages.offer)}
                  </Button>
                )}
              </div>
            )}
          </>
        )}
      </QueryState>
    </Card>
  );
}

const linkMessages = defineMessages({
  title: { id: "seller.customer.team.link", defaultMessage: "Seats for the team's organization" },
  text: { id: "seller.customer.team.linkText", defaultMessage: "Offer the team that its seats follow the members of its own Tollgate organization: whoever joins it takes a free seat, whoever leaves gives theirs back. The team's owner consents in the customer portal." },
  offer: { id: "seller.customer.team.offerLink", defaultMessage: "Offer the organization link" },
  loading: { id: "seller.customer.team.loadingLink", defaultMessage: "Loading the organization link…" },
  end: { id: "seller.customer.team.endLink", defaultMessage: "End the link" },
  endTitle: { id: "seller.customer.team.endLinkTitle", defaultMessage: "End the organization link?" },
  endText: { id: "seller.customer.team.endLinkText", defaultMessage: "Members keep the seats they hold; the seats no longer follow the organization." },
});
