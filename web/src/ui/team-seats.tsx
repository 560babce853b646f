import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { z } from "zod/mini";
import type { CustomerSeat, SeatsList } from "../api/wire";
import { placeRefusals, refusalText } from "../forms/refusals";
import { seatForm, type SeatForm } from "../forms/team";
import { Alert, Button, EmptyState, Field } from "./components";
import { ConfirmDialog } from "./confirm-dialog";
import type { Outcome } from "./outcome";

/**
 * The seats one purchase holds (a seat-based subscription, or an order), as the seller's console
 * and the team's owner in the portal both manage them: how many are free, who holds each and
 * whether they claimed it, and — when `changes` are offered — assign one by e-mail, send the
 * invitation again, revoke one.
 */

/** The calls that change the seats; each rejects as the API refused. */
export interface SeatChanges {
  assign: (email: string) => Promise<unknown>;
  resend: (seat: CustomerSeat) => Promise<unknown>;
  revoke: (seat: CustomerSeat) => Promise<unknown>;
}

const messages = defineMessages({
  available: defineMessage<{ available: number; total: number }>({
    id: "ui.team.seats.available",
    defaultMessage: "{available, plural, one {# of {total, number} seats is free.} other {# of {total, number} seats are free.}}",
  }),
  label: defineMessage<{ product: string }>({ id: "ui.team.seats.label", defaultMessage: "Seats of {product}" }),
  none: { id: "ui.team.seats.none", defaultMessage: "No seat is assigned yet." },
  nobody: { id: "ui.team.seats.nobody", defaultMessage: "Nobody yet" },
  status: defineMessage<{ status: string }>({ id: "ui.team.seats.status", defaultMessage: "{status, select, pending {Invited} claimed {Claimed} other {Revoked}}" }),
  resend: { id: "ui.team.seats.resend", defaultMessage: "Send the invitation again" },
  resent: defineMessage<{ email: string }>({ id: "ui.team.seats.resent", defaultMessage: "The invitation was sent to {email} again." }),
  revoke: { id: "ui.team.seats.revoke", defaultMessage: "Revoke" },
  revokeNamed: defineMessage<{ email: string }>({ id: "ui.team.seats.revokeNamed", defaultMessage: "Revoke the seat of {email}" }),
  revokeTitle: defineMessage<{ email: string }>({ id: "ui.team.seats.revokeTitle", defaultMessage: "Revoke the seat of {email}?" }),
  revokeText: { id: "ui.team.seats.revokeText", defaultMessage: "What the seat gives them ends at once, and the seat is free to assign again." },
  revoked: defineMessage<{ email: string }>({ id: "ui.team.seats.revoked", defaultMessage: "The seat of {email} is revoked." }),
  email: { id: "ui.team.seats.email", defaultMessage: "E-mail of the person to invite" },
  assign: { id: "ui.team.seats.assign", defaultMessage: "Assign a seat" },
  assigned: defineMessage<{ email: string }>({ id: "ui.team.seats.assigned", defaultMessage: "{email} is invited to claim the seat." }),
  full: { id: "ui.team.seats.full", defaultMessage: "Every seat is taken: revoke one, or add seats to the subscription, to invite someone else." },
});

/** Whom a seat is for: its e-mail, else its member's or customer's. */
const holderOf = (seat: CustomerSeat) => seat.email ?? seat.member?.email ?? seat.customer_email;

export function TeamSeats({ product, seats, changes }: { product: string; seats: SeatsList; changes?: SeatChanges }) {
  const { formatMessage } = useIntl();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const shown = seats.seats.filter((seat) => seat.status !== "revoked");
  return (
    <>
      <p>{formatMessage(messages.available, { available: seats.available_seats, total: seats.total_seats })}</p>
      {shown.length === 0 ? (
        <EmptyState title={formatMessage(messages.none)} />
      ) : (
        <ul className="list" aria-label={formatMessage(messages.label, { product })}>
          {shown.map((seat) => (
            <SeatItem key={seat.id} seat={seat} changes={changes} />
          ))}
        </ul>
      )}
      {changes && (seats.available_seats > 0 ? <AssignSeatForm assign={changes.assign} onOutcome={setOutcome} /> : <p className="muted">{formatMessage(messages.full)}</p>)}
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
    </>
  );
}

function SeatItem({ seat, changes }: { seat: CustomerSeat; changes?: SeatChanges }) {
  const { formatMessage } = useIntl();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const email = holderOf(seat) ?? formatMessage(messages.nobody);
  const act = async (call: Promise<unknown>, done: string) => {
    try {
      await call;
      setOutcome({ tone: "success", text: done });
    } catch (reason) {
      setOutcome({ tone: "error", text: refusalText(reason) });
    }
  };
  const resend = async () => {
    if (!changes) return;
    setOutcome(null);
    setBusy(true);
    await act(changes.resend(seat), formatMessage(messages.resent, { email }));
    setBusy(false);
  };
  const revoke = async () => {
    if (changes) await act(changes.revoke(seat), formatMessage(messages.revoked, { email }));
    return true;
  };
  return (
    <li className="list-block">
      <div className="list-row">
        <p className="team-who">
          <span translate="no">{email}</span> <span className={seat.status === "claimed" ? "badge" : "badge badge-muted"}>{formatMessage(messages.status, { status: seat.status })}</span>
        </p>
        {changes && (
          <div className="row-actions">
            {seat.status === "pending" && (
              <Button variant="secondary" busy={busy} onClick={() => void resend()}>
                {formatMessage(messages.resend)}
              </Button>
            )}
            <ConfirmDialog
              trigger={
                <Button variant="danger" aria-label={formatMessage(messages.revokeNamed, { email })}>
                  {formatMessage(messages.revoke)}
                </Button>
              }
              title={formatMessage(messages.revokeTitle, { email })}
              description={formatMessage(messages.revokeText)}
              confirmLabel={formatMessage(messages.revoke)}
              onConfirm={revoke}
            />
          </div>
        )}
      </div>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
    </li>
  );
}

function AssignSeatForm({ assign, onOutcome }: { assign: SeatChanges["assign"]; onOutcome: (outcome: Outcome) => void }) {
  const { formatMessage } = useIntl();
  const form = useForm<SeatForm, unknown, z.output<typeof seatForm>>({ resolver: zodResolver(seatForm), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ email }) => {
    onOutcome(null);
    try {
      await assign(email);
    } catch (reason) {
      const left = placeRefusals(reason, { email: "email" }, form.setError);
      return onOutcome(left ? { tone: "error", text: left } : null);
    }
    form.reset();
    onOutcome({ tone: "success", text: formatMessage(messages.assigned, { email }) });
  });
  return (
    <form className="form team-assign" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.email)} error={errors.email?.message}>
        {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="off" />}
      </Field>
      <div className="actions">
        <Button type="submit" busy={isSubmitting}>
          {formatMessage(messages.assign)}
        </Button>
      </div>
    </form>
  );
}
