import { PollingWorker, workBatch, type BatchedItems, type Knex, type Logger, type Units, type WorkFailures } from "@tollgate/kit";
import type { BenefitGrantRow } from "../benefits/benefits.sql.js";
import { announceBilling } from "../events.js";
import { rowsFromJson } from "../db/json-rows.js";
import type { CustomerMeterRow } from "../customer-meters/customer-meters.sql.js";
import type { PriceRow } from "../products/prices.js";
import { subscriptionFieldsJson, subscriptionMeterFieldsJson } from "../subscriptions/output.js";
import type { SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import { clearStateChanges, dueStateChanges, STATE_WORKER, type CustomerWithHoldings, type DueStateChange } from "./customers.sql.js";
import { customerJson } from "./output.js";

type GrantWithBenefit = BenefitGrantRow & { benefit_type: string; benefit_metadata: Record<string, unknown> };

/*
 * A customer's state is shown here rather than in output.ts: it is made of subscriptions' JSON,
 * which is made of customerJson, and output modules that import each other see each other half made.
 */

/** Everything a customer has now, as Polar's CustomerState: their active subscriptions, granted benefits and meters. */
export function customerStateJson({ grants, subscriptions, metered_prices: meteredPrices, meters: standings, ...customer }: CustomerWithHoldings) {
  const live = rowsFromJson<SubscriptionRow>(subscriptions, ["current_period_start", "current_period_end", "trial_start", "trial_end", "canceled_at", "started_at", "ends_at", "ended_at", "created_at", "modified_at"]);
  const meters = rowsFromJson<CustomerMeterRow>(standings, ["created_at", "modified_at"]);
  const prices = rowsFromJson<PriceRow>(meteredPrices, ["created_at", "modified_at"]);
  /** The subscription's standing on each meter its product's metered prices bill. */
  const metersOf = (subscription: SubscriptionRow) =>
    prices.flatMap((price) => {
      const standing = meters.find((meter) => meter.meter_id === price.meter_id);
      return price.product_id === subscription.product_id && price.price_currency === subscription.currency && standing ? [subscriptionMeterFieldsJson(price, standing)] : [];
    });
  return {
    ...customerJson(customer),
    active_subscriptions: live.map((subscription) => {
      const { id, created_at, modified_at, metadata, status, amount, currency, recurring_interval, current_period_start, current_period_end, trial_start, trial_end, cancel_at_period_end, canceled_at, started_at, ends_at, product_id, discount_id } =
        subscriptionFieldsJson(subscription);
      return { id, created_at, modified_at, custom_field_data: subscription.custom_field_data, metadata, status, amount, currency, recurring_interval, current_period_start, current_period_end, trial_start, trial_end, cancel_at_period_end, canceled_at, started_at, ends_at, product_id, discount_id, meters: metersOf(subscription) };
    }),
    granted_benefits: rowsFromJson<GrantWithBenefit>(grants, ["granted_at", "created_at", "modified_at"]).map((grant) => ({
      id: grant.id,
      created_at: grant.created_at,
      modified_at: grant.modified_at,
      granted_at: grant.granted_at,
      benefit_id: grant.benefit_id,
      benefit_type: grant.benefit_type,
      benefit_metadata: grant.benefit_metadata,
      properties: grant.properties,
    })),
    active_meters: meters.map((meter) => ({
      id: meter.id,
      created_at: meter.created_at,
      modified_at: meter.modified_at,
      meter_id: meter.meter_id,
      consumed_units: meter.consumed_units,
      credited_units: meter.credited_units,
      balance: meter.credited_units - meter.consumed_units,
    })),
  };
}

const BATCH = 50;

/**
 * Announces customer.state_changed for customers whose state changed, once per burst: every change
 * records when it came (billing events through announceBilling, meters through the measurer), and a
 * customer's row is taken once no change has come for CUSTOMER_STATE_DEBOUNCE_MS (FOR UPDATE SKIP LOCKED,
 * so two replicas never announce one change twice). A batch takes one statement to read and one to
 * announce and clear; a customer whose state cannot be announced is set aside for its seller after a
 * few passes, and every other customer's is announced.
 */
export class CustomerStateAnnouncer extends PollingWorker {
  private readonly changes: BatchedItems<DueStateChange>;

  constructor(private readonly desk: { db: Knex; units: Units; failures: WorkFailures; logger: Logger; config: { CUSTOMER_STATE_DEBOUNCE_MS: number } }) {
    super({ intervalMs: Math.max(100, Math.min(1_000, desk.config.CUSTOMER_STATE_DEBOUNCE_MS / 2)), logger: desk.logger, failure: "announcing customer states failed" });
    this.changes = {
      worker: STATE_WORKER,
      due: (db, which) => dueStateChanges(db, { ...which, settleMs: desk.config.CUSTOMER_STATE_DEBOUNCE_MS }),
      keyOf: (change) => change.customer_id,
      organizationOf: (change) => change.holdings?.organization_id ?? null,
      work: (unit, due) => {
        if (due.length === 0) return;
        unit.change(clearStateChanges(unit.db, due.map((row) => row.customer_id)));
        for (const { holdings } of due) {
          if (holdings && holdings.deleted_at === null) announceBilling(unit, "customer.state_changed", holdings.organization_id, customerStateJson(holdings));
        }
      },
    };
  }

  protected async pass(): Promise<void> {
    const passOver = new Set<string>();
    await this.drain(BATCH, () => workBatch(this.desk, this.changes, BATCH, passOver));
  }
}
