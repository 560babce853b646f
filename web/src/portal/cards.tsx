import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState, type FormEvent } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { describeFailure } from "../api/client";
import { CardFields } from "../checkout/card-fields";
import { sandboxCardToken } from "../checkout/api";
import { cardForm, type CardEntry } from "../checkout/form";
import { cardFormNotReady, StripePaymentElement, type StripePayment } from "../checkout/stripe-payment";
import { Alert, Button, Card as Section, EmptyState } from "../ui/components";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { QueryState } from "../ui/query-state";
import { CARDS, forgetCard, keepCard, makeDefaultCard, type Card, type Listing, type PortalAccess } from "./api";
import { failureText } from "./failures";
import { portalProcessorQuery, portalQuery } from "./queries";

const messages = defineMessages({
  title: { id: "portal.cards.title", defaultMessage: "Cards" },
  description: defineMessage<{ seller: string }>({ id: "portal.cards.description", defaultMessage: "The cards {seller} may charge. Your subscriptions renew with the default one." }),
  loading: { id: "portal.cards.loading", defaultMessage: "Loading your cards…" },
  none: { id: "portal.cards.none", defaultMessage: "No cards kept." },
  label: { id: "portal.cards.label", defaultMessage: "Your cards" },
  card: defineMessage<{ brand: string; last4: string; expiry: string }>({ id: "portal.cards.card", defaultMessage: "{brand} ending in {last4}, expires {expiry}" }),
  isDefault: { id: "portal.cards.default", defaultMessage: "Default" },
  makeDefault: { id: "portal.cards.makeDefault", defaultMessage: "Make default" },
  madeDefault: { id: "portal.cards.madeDefault", defaultMessage: "Your subscriptions renew with this card from now on." },
  remove: { id: "portal.cards.remove", defaultMessage: "Remove" },
  removeTitle: defineMessage<{ last4: string }>({ id: "portal.cards.removeTitle", defaultMessage: "Remove the card ending in {last4}?" }),
  removeDescription: { id: "portal.cards.removeDescription", defaultMessage: "It is not charged again. A subscription that renews with it moves to your default card." },
  removed: { id: "portal.cards.removed", defaultMessage: "The card is removed." },
  add: { id: "portal.cards.add", defaultMessage: "Add a card" },
  save: { id: "portal.cards.save", defaultMessage: "Save card" },
  cancel: { id: "portal.cards.cancel", defaultMessage: "Cancel" },
  useIt: { id: "portal.cards.useIt", defaultMessage: "Make it my default: my subscriptions renew with it" },
  saved: { id: "portal.cards.saved", defaultMessage: "Your card is saved." },
  savedDefault: { id: "portal.cards.savedDefault", defaultMessage: "Your card is saved, and your subscriptions renew with it. A renewal that failed is tried again now." },
});

type Outcome = { tone: "error" | "success"; text: string } | null;

/** A card's network as people write it: "visa" is Visa. */
const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);

function CardItem({ access, card, onOutcome }: { access: PortalAccess; card: Card; onOutcome: (outcome: Outcome) => void }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const { brand, last4, exp_month: month, exp_year: year } = card.method_metadata;
  const refresh = () => queryClient.invalidateQueries({ queryKey: portalQuery(access, CARDS).queryKey });
  const makeDefault = async () => {
    setBusy(true);
    onOutcome(null);
    try {
      await makeDefaultCard(access, card.id);
      await refresh();
      onOutcome({ tone: "success", text: formatMessage(messages.madeDefault) });
    } catch (reason) {
      onOutcome({ tone: "error", text: failureText(reason) });
    }
    setBusy(false);
  };
  const remove = async () => {
    onOutcome(null);
    try {
      await forgetCard(access, card.id);
    } catch (reason) {
      onOutcome({ tone: "error", text: failureText(reason) });
      return true;
    }
    await refresh();
    onOutcome({ tone: "success", text: formatMessage(messages.removed) });
    return true;
  };
  return (
    <li className="list-row">
      <span translate="no">{formatMessage(messages.card, { brand: brandName(brand), last4, expiry: `${String(month).padStart(2, "0")}/${String(year % 100).padStart(2, "0")}` })}</span>
      <div className="actions">
        {card.is_default ? (
          <span className="badge">{formatMessage(messages.isDefault)}</span>
        ) : (
          <Button variant="secondary" busy={busy} onClick={() => void makeDefault()}>
            {formatMessage(messages.makeDefault)}
          </Button>
        )}
        <ConfirmDialog
          trigger={<Button variant="secondary">{formatMessage(messages.remove)}</Button>}
          title={formatMessage(messages.removeTitle, { last4 })}
          description={formatMessage(messages.removeDescription)}
          confirmLabel={formatMessage(messages.remove)}
          onConfirm={remove}
        />
      </div>
    </li>
  );
}

/** A new card: the sandbox's fields, or Stripe's Payment Element, and whether it becomes the default. */
function AddCardForm({ access, onDone }: { access: PortalAccess; onDone: (outcome: Outcome) => void }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const processor = useQuery(portalProcessorQuery);
  const [failure, setFailure] = useState<string | null>(null);
  const [useIt, setUseIt] = useState(true);
  const form = useForm<CardEntry, unknown, CardEntry>({ resolver: zodResolver(cardForm), defaultValues: { cardNumber: "", expiry: "", cvc: "" } });
  const stripePayment = useRef<StripePayment | null>(null);
  const onStripeReady = useCallback((payment: StripePayment | null) => void (stripePayment.current = payment), []);
  const publishableKey = processor.data?.publishable_key ?? null;

  const [saving, setSaving] = useState(false);

  /** The card as a confirmation token's id (from the sandbox's fields, or Stripe's), or what is wrong with it in words. */
  const tokenOf = async (card: CardEntry | null): Promise<{ id: string } | { error: string }> => {
    if (card) return { id: await sandboxCardToken(card) };
    return (await stripePayment.current?.token()) ?? { error: formatMessage(cardFormNotReady) };
  };
  const save = async (card: CardEntry | null) => {
    setFailure(null);
    setSaving(true);
    try {
      const token = await tokenOf(card);
      if ("error" in token) return setFailure(token.error);
      await keepCard(access, token.id, useIt, async (clientSecret) => stripePayment.current?.finish(clientSecret));
    } catch (reason) {
      return setFailure(describeFailure(reason));
    } finally {
      setSaving(false);
    }
    await queryClient.invalidateQueries({ queryKey: portalQuery(access, CARDS).queryKey });
    onDone({ tone: "success", text: formatMessage(useIt ? messages.savedDefault : messages.saved) });
  };
  // Stripe checks its own fields; the sandbox's are checked by the form first.
  const onSubmit = (event: FormEvent) => {
    if (!publishableKey) return void form.handleSubmit((card) => save(card))(event);
    event.preventDefault();
    void save(null);
  };
  return (
    <QueryState query={processor} loading={messages.loading}>
      {() => (
        <form onSubmit={onSubmit} noValidate className="stack">
          {/* Cards are taken in every currency: Stripe only needs one named for its form. */}
          {publishableKey ? <StripePaymentElement charge={{ amount: 0, currency: "usd", keepsCard: true }} publishableKey={publishableKey} onReady={onStripeReady} /> : <CardFields form={form} />}
          <label className="checkbox">
            <input type="checkbox" checked={useIt} onChange={(event) => setUseIt(event.target.checked)} />
            {formatMessage(messages.useIt)}
          </label>
          {failure && <Alert tone="error">{failure}</Alert>}
          <div className="actions">
            <Button type="submit" busy={saving}>
              {formatMessage(messages.save)}
            </Button>
            <Button type="button" variant="secondary" onClick={() => onDone(null)}>
              {formatMessage(messages.cancel)}
            </Button>
          </div>
        </form>
      )}
    </QueryState>
  );
}

/** The customer's kept cards: which is charged, another made the default, one removed, one added. */
export function CardsCard({ access }: { access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const cards = useQuery(portalQuery<Listing<Card>>(access, CARDS));
  const [adding, setAdding] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const finishAdding = (done: Outcome) => {
    setAdding(false);
    setOutcome(done);
  };
  return (
    <Section title={formatMessage(messages.title)} description={formatMessage(messages.description, { seller: access.seller.name })}>
      <QueryState query={cards} loading={messages.loading} failure={(error) => failureText(error)} isEmpty={(listing) => listing.items.length === 0} empty={<EmptyState title={formatMessage(messages.none)} />}>
        {(listing) => (
          <ul className="list" aria-label={formatMessage(messages.label)}>
            {listing.items.map((card) => (
              <CardItem key={card.id} access={access} card={card} onOutcome={setOutcome} />
            ))}
          </ul>
        )}
      </QueryState>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      {adding ? (
        <AddCardForm access={access} onDone={finishAdding} />
      ) : (
        <Button variant="secondary" onClick={() => (setOutcome(null), setAdding(true))}>
          {formatMessage(messages.add)}
        </Button>
      )}
    </Section>
  );
}
