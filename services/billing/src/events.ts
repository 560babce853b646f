import type { Knex, Outbox, UnitOfWork } from "@tollgate/kit";
import { billingEvents, type EventEnvelope, type WebhookEventType } from "@tollgate/proto";

/** The envelopes announcing `payload` as billing events of the types given, in that order. */
function billingEnvelopes(outbox: Outbox, type: WebhookEventType | WebhookEventType[], organizationId: string, payload: object): EventEnvelope[] {
  const types = Array.isArray(type) ? type : [type];
  // Dates in the payload become ISO strings when the envelope is written as JSON, as in API answers.
  const data = { organization_id: organizationId, payload: payload as Record<string, unknown> };
  return outbox.envelopes(types.map((each) => ({ event: billingEvents[each], data })));
}

/**
 * Announces a billing event for sellers' webhooks inside the caller's transaction: `payload` is the
 * resource as the API shows it (dates become ISO strings on the way). Several types given are
 * written in that order with the one payload, in one statement.
 */
export async function emitBillingEvent(outbox: Outbox, trx: Knex.Transaction, type: WebhookEventType | WebhookEventType[], organizationId: string, payload: object): Promise<void> {
  await outbox.write(trx, [], billingEnvelopes(outbox, type, organizationId, payload));
}

/**
 * A step's changes and the billing events announcing them, gathered while the step is worked out
 * and then written in one statement (see Outbox.write): the hot paths of a sale (a checkout opened,
 * confirmed, paid) each write everything they change in one round trip. The changes are knex
 * inserts, updates and deletes, built but not run; none may depend on another's rows. The statement
 * is prepared (see Outbox.write) unless the set is a batch whose shape follows its size.
 */
export class ChangeSet {
  private readonly changes: Knex.QueryBuilder[] = [];
  private readonly envelopes: EventEnvelope[] = [];

  constructor(
    private readonly outbox: Outbox,
    readonly db: Knex,
    private readonly shape: { batch: boolean } = { batch: false },
  ) {}

  change(...queries: Knex.QueryBuilder[]): this {
    this.changes.push(...queries);
    return this;
  }

  announce(type: WebhookEventType | WebhookEventType[], organizationId: string, payload: object): this {
    this.envelopes.push(...billingEnvelopes(this.outbox, type, organizationId, payload));
    return this;
  }

  /** Writes everything gathered; how many rows each change wrote, in the order they were added. */
  write(): Promise<number[]> {
    return this.outbox.write(this.db, this.changes, this.envelopes, { prepared: !this.shape.batch });
  }
}

/**
 * Announces `payload` (the resource as the API shows it) as billing events of the types given, in
 * that order, with the unit's other changes: the one way billing tells sellers' webhooks.
 */
export function announceBilling(unit: UnitOfWork, type: WebhookEventType | WebhookEventType[], organizationId: string, payload: object): void {
  const types = Array.isArray(type) ? type : [type];
  unit.announce(
    types.map((each) => billingEvents[each]),
    { organization_id: organizationId, payload: payload as Record<string, unknown> },
  );
}
