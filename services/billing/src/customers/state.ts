import { PollingWorker, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import type { BenefitGrantRow } from "../benefits/grants.js";
import type { BenefitRow } from "../benefits/benefits.sql.js";
import { emitBillingEvent } from "../events.js";
import { subscriptionFieldsJson } from "../subscriptions/output.js";
import { subscriptions } from "../subscriptions/subscriptions.sql.js";
import { findCustomer, type CustomerRow } from "./customers.sql.js";
import { customerJson } from "./output.js";

/** Everything a customer has now, as Polar's CustomerState: their active subscriptions, granted benefits and meters. */
export async function customerState(db: Knex, customer: CustomerRow) {
  const grants = await db<BenefitGrantRow>("benefit_grants")
    .join<BenefitRow>("benefits", "benefits.id", "benefit_grants.benefit_id")
    .where("benefit_grants.customer_id", customer.id)
    .whereNotNull("benefit_grants.granted_at")
    .whereNull("benefit_grants.revoked_at")
    .orderBy("benefit_grants.granted_at")
    .select<(BenefitGrantRow & { benefit_type: string; benefit_metadata: Record<string, unknown> })[]>(
      "benefit_grants.*",
      "benefits.type as benefit_type",
      "benefits.metadata as benefit_metadata",
    );
  const live = await subscriptions(db).where({ customer_id: customer.id }).whereIn("status", ["active", "trialing"]).orderBy("started_at");
  return {
    ...customerJson(customer),
    active_subscriptions: live.map((subscription) => {
      const { id, created_at, modified_at, metadata, status, amount, currency, recurring_interval, current_period_start, current_period_end, trial_start, trial_end, cancel_at_period_end, canceled_at, started_at, ends_at, product_id, discount_id } =
        subscriptionFieldsJson(subscription);
      return { id, created_at, modified_at, custom_field_data: subscription.custom_field_data, metadata, status, amount, currency, recurring_interval, current_period_start, current_period_end, trial_start, trial_end, cancel_at_period_end, canceled_at, started_at, ends_at, product_id, discount_id, meters: [] };
    }),
    granted_benefits: grants.map((grant) => ({
      id: grant.id,
      created_at: grant.created_at,
      modified_at: grant.modified_at,
      granted_at: grant.granted_at,
      benefit_id: grant.benefit_id,
      benefit_type: grant.benefit_type,
      benefit_metadata: grant.benefit_metadata,
      properties: grant.properties,
    })),
    active_meters: [],
  };
}

const BATCH = 50;

/**
 * Announces customer.state_changed for customers whose state changed, once per burst: every change
 * pushes the customer's row later, and the row is taken when it comes due (FOR UPDATE SKIP LOCKED,
 * so two replicas never announce one change twice).
 */
export class CustomerStateAnnouncer extends PollingWorker {
  constructor(private readonly billing: Billing) {
    super({ intervalMs: Math.max(100, Math.min(1_000, billing.config.CUSTOMER_STATE_DEBOUNCE_MS / 2)), logger: billing.logger, failure: "announcing customer states failed" });
  }

  protected async pass(): Promise<void> {
    const { db, outbox } = this.billing;
    await this.drain(BATCH, () =>
      db.transaction(async (trx) => {
        const due = await trx("customer_state_changes").where("run_at", "<=", new Date()).orderBy("run_at").limit(BATCH).forUpdate().skipLocked().select<{ customer_id: string }[]>("customer_id");
        for (const { customer_id: customerId } of due) {
          const customer = await findCustomer(trx, customerId);
          if (customer) await emitBillingEvent(outbox, trx, "customer.state_changed", customer.organization_id, await customerState(trx, customer));
        }
        await trx("customer_state_changes").whereIn("customer_id", due.map((row) => row.customer_id)).delete();
        return due.length;
      }),
    );
  }
}
