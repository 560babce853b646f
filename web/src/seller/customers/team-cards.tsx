import { useQuery } from "@tanstack/react-query";
import { defineMessages, useIntl } from "react-intl";
import { Card, EmptyState } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { TeamMembers, type MemberChanges } from "../../ui/team-members";
import { TeamSeats, type SeatChanges } from "../../ui/team-seats";
import { useSeller } from "../space";
import type { SeatHolder } from "./api";
import { membersQuery, seatHoldersQuery, seatsQuery, useAddMember, useAssignSeat, useRemoveMember, useResendSeat, useRevokeSeat, useUpdateMember } from "./queries";

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
