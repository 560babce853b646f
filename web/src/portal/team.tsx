import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { z } from "zod/mini";
import { placeRefusals } from "../forms/refusals";
import { seatBounds, seatCountForm, type SeatBounds, type SeatCountForm } from "../forms/team";
import { Alert, Button, Card, EmptyState } from "../ui/components";
import type { Outcome } from "../ui/outcome";
import { QueryState, together } from "../ui/query-state";
import { TeamMembers, type MemberChanges } from "../ui/team-members";
import { SeatCountField } from "../ui/seat-count-field";
import { TeamSeats, type SeatChanges } from "../ui/team-seats";
import { MEMBERS, ORDERS, seatsOf, SUBSCRIPTIONS, type Listing, type Order, type PortalAccess, type PortalMember, type SeatsList, type Subscription } from "./api";
import { failureText } from "./failures";
import { portalQuery, useAddMember, useAssignSeat, useChangeSeats, useRemoveMember, useResendSeat, useRevokeSeat, useUpdateMember } from "./queries";

const messages = defineMessages({
  members: { id: "portal.team.members", defaultMessage: "Your team" },
  membersText: { id: "portal.team.membersText", defaultMessage: "Who belongs to your team. Billing managers manage the team and its billing with you; members see only what their seat gives them." },
  loadingMembers: { id: "portal.team.loadingMembers", defaultMessage: "Loading your team…" },
  seats: { id: "portal.team.seats", defaultMessage: "Seats" },
  seatsText: { id: "portal.team.seatsText", defaultMessage: "Invite people to your seats by e-mail: each claims their seat from the invitation and signs in here to use it." },
  loadingSeats: { id: "portal.team.loadingSeats", defaultMessage: "Loading your seats…" },
  noSeats: { id: "portal.team.noSeats", defaultMessage: "None of your purchases has seats." },
  changeSeats: { id: "portal.team.changeSeats", defaultMessage: "Change seats" },
  seatsChanged: defineMessage<{ seats: number }>({ id: "portal.team.seatsChanged", defaultMessage: "{seats, plural, one {Your subscription now has # seat.} other {Your subscription now has # seats.}}" }),
});

/** The team's members, for its owner and billing managers: add, change a role, remove. */
export function TeamMembersCard({ access }: { access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const members = useQuery(portalQuery<Listing<PortalMember>>(access, MEMBERS));
  const add = useAddMember(access);
  const update = useUpdateMember(access);
  const remove = useRemoveMember(access);
  const changes: MemberChanges = {
    add: (member) => add.mutateAsync(member),
    changeRole: (member, role) => update.mutateAsync({ memberId: member.id, change: { role } }),
    remove: (member) => remove.mutateAsync(member.id),
  };
  return (
    <Card title={formatMessage(messages.members)} description={formatMessage(messages.membersText)}>
      <QueryState query={members} loading={messages.loadingMembers} failure={(error) => failureText(error)}>
        {({ items }) => <TeamMembers members={items} changes={changes} />}
      </QueryState>
    </Card>
  );
}

/** What holds seats: a running seat-based subscription, or a one-time order of a seat-based price. */
type Holder = { subscription: Subscription } | { order: Order };

const holdersOf = (subscriptions: Subscription[], orders: Order[]): Holder[] => [
  ...subscriptions.filter((subscription) => subscription.seats && !subscription.ended_at).map((subscription) => ({ subscription })),
  // A subscription's orders carry its seats too: only orders of their own hold seats.
  ...orders.filter((order) => order.seats && !order.subscription_id).map((order) => ({ order })),
];

/** The seats of the team's purchases, for its owner and billing managers: assign, send again, revoke; and a subscription's seat count, where the seller allows. */
export function TeamSeatsCard({ access }: { access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const subscriptions = useQuery(portalQuery<Listing<Subscription>>(access, SUBSCRIPTIONS));
  const orders = useQuery(portalQuery<Listing<Order>>(access, ORDERS));
  return (
    <Card title={formatMessage(messages.seats)} description={formatMessage(messages.seatsText)}>
      <QueryState
        query={together(subscriptions, orders)}
        loading={messages.loadingSeats}
        failure={(error) => failureText(error)}
        isEmpty={([subscribed, ordered]) => holdersOf(subscribed.items, ordered.items).length === 0}
        empty={<EmptyState title={formatMessage(messages.noSeats)} />}
      >
        {([subscribed, ordered]) =>
          holdersOf(subscribed.items, ordered.items).map((holder) => (
            <HolderSeats key={"subscription" in holder ? holder.subscription.id : holder.order.id} access={access} holder={holder} />
          ))
        }
      </QueryState>
    </Card>
  );
}

function HolderSeats({ access, holder }: { access: PortalAccess; holder: Holder }) {
  const held: Parameters<typeof seatsOf>[0] = "subscription" in holder ? { subscription_id: holder.subscription.id } : { order_id: holder.order.id };
  const product = "subscription" in holder ? holder.subscription.product.name : (holder.order.product?.name ?? holder.order.description);
  const seats = useQuery(portalQuery<SeatsList>(access, seatsOf(held)));
  const assign = useAssignSeat(access);
  const resend = useResendSeat(access);
  const revoke = useRevokeSeat(access);
  const changes: SeatChanges = {
    assign: (email) => assign.mutateAsync({ ...held, email, immediate_claim: false }),
    resend: (seat) => resend.mutateAsync(seat.id),
    revoke: (seat) => revoke.mutateAsync(seat.id),
  };
  const { allow_customer_updates: mayUpdate, customer_portal_settings: settings } = access.seller;
  const bounds = "subscription" in holder && mayUpdate && settings.subscription.update_seats ? seatBounds(holder.subscription.prices) : undefined;
  return (
    <section className="team-holder">
      <h3>{product}</h3>
      <QueryState query={seats} loading={messages.loadingSeats} failure={(error) => failureText(error)}>
        {(list) => <TeamSeats product={product} seats={list} changes={changes} />}
      </QueryState>
      {bounds && "subscription" in holder && <SeatCountChange access={access} subscription={holder.subscription} bounds={bounds} />}
    </section>
  );
}

function SeatCountChange({ access, subscription, bounds }: { access: PortalAccess; subscription: Subscription; bounds: SeatBounds }) {
  const { formatMessage } = useIntl();
  const change = useChangeSeats(access);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const schema = seatCountForm(bounds);
  const form = useForm<SeatCountForm, unknown, z.output<typeof schema>>({ resolver: zodResolver(schema), values: { seats: String(subscription.seats ?? bounds.min) } });
  const submit = form.handleSubmit(async ({ seats }) => {
    setOutcome(null);
    try {
      const changed = await change.mutateAsync({ subscriptionId: subscription.id, seats: Number(seats) });
      setOutcome({ tone: "success", text: formatMessage(messages.seatsChanged, { seats: changed.seats ?? Number(seats) }) });
    } catch (reason) {
      const left = placeRefusals(reason, { seats: "seats" }, form.setError);
      setOutcome(left ? { tone: "error", text: left } : null);
    }
  });
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <SeatCountField bounds={bounds} field={form.register("seats")} error={form.formState.errors.seats?.message} />
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <div className="actions">
        <Button type="submit" variant="secondary" busy={form.formState.isSubmitting}>
          {formatMessage(messages.changeSeats)}
        </Button>
      </div>
    </form>
  );
}
