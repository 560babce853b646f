import { PollingWorker, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { rowsFromJson } from "../api/jsonb.js";
import type { BenefitGrantRow } from "../benefits/grants.js";
import { ChangeSet } from "../events.js";
import { subscriptionFieldsJson } from "../subscriptions/output.js";
import type { SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import type { CustomerRow } from "./customers.sql.js";
import { customerJson } from "./output.js";

type GrantWithBenefit = BenefitGrantRow & { benefit_type: string; benefit_metadata: Record<string, unknown> };

/** A customer with what they have now: granted benefits (with their benefit's type) and live subscriptions, as JSON columns. */
type CustomerWithHoldings = CustomerRow & { grants: unknown; subscriptions: unknown };

/** What the customers are given, read for all of them in one statement; `customerIds` may be a query of them. */
const holdingsOf = (db: Knex, customerIds: Knex.QueryBuilder | string[]) =>
  db("customers as customer")
    .whereIn("customer.id", customerIds)
    .select<CustomerWithHoldings[]>(
      "customer.*",
      db.raw(`coalesce((select json_agg(granted order by granted.granted_at) from (
          select given.*, benefit.type as benefit_type, benefit.metadata as benefit_metadata
          from benefit_grants given join benefits benefit on benefit.id = given.benefit_id
          where given.customer_id = customer.id and given.granted_at is not null and given.revoked_at is null) granted), '[]') as grants`),
      db.raw(`coalesce((select json_agg(subscription order by subscription.started_at) from subscriptions subscription
          where subscription.customer_id = customer.id and subscription.status in ('active', 'trialing')), '[]') as subscriptions`),
    );

/** Everything a customer has now, as Polar's CustomerState: their active subscriptions, granted benefits and meters. */
function customerStateJson({ grants, subscriptions, ...customer }: CustomerWithHoldings) {
  const live = rowsFromJson<SubscriptionRow>(subscriptions, ["current_period_start", "current_period_end", "trial_start", "trial_end", "canceled_at", "started_at", "ends_at", "ended_at", "created_at", "modified_at"]);
  return {
    ...customerJson(customer),
    active_subscriptions: live.map((subscription) => {
      const { id, created_at, modified_at, metadata, status, amount, currency, recurring_interval, current_period_start, current_period_end, trial_start, trial_end, cancel_at_period_end, canceled_at, started_at, ends_at, product_id, discount_id } =
        subscriptionFieldsJson(subscription);
      return { id, created_at, modified_at, custom_field_data: subscription.custom_field_data, metadata, status, amount, currency, recurring_interval, current_period_start, current_period_end, trial_start, trial_end, cancel_at_period_end, canceled_at, started_at, ends_at, product_id, discount_id, meters: [] };
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
    active_meters: [],
  };
}

/** Everything a customer has now, as Polar's CustomerState. */
export async function customerState(db: Knex, customer: CustomerRow) {
  const [holdings] = await holdingsOf(db, [customer.id]);
  if (!holdings) throw new Error(`customer ${customer.id} is gone`);
  return customerStateJson(holdings);
}

const BATCH = 50;

/**
 * Announces customer.state_changed for customers whose state changed, once per burst: every change
 * pushes the customer's row later, and the rows are taken when they come due (FOR UPDATE SKIP LOCKED,
 * so two replicas never announce one change twice). A batch takes one statement to read and one to
 * announce and clear.
 */
export class CustomerStateAnnouncer extends PollingWorker {
  constructor(private readonly billing: Billing) {
    super({ intervalMs: Math.max(100, Math.min(1_000, billing.config.CUSTOMER_STATE_DEBOUNCE_MS / 2)), logger: billing.logger, failure: "announcing customer states failed" });
  }

  protected async pass(): Promise<void> {
    const { db, outbox } = this.billing;
    await this.drain(BATCH, () =>
      db.transaction(async (trx) => {
        // The due rows are locked and their customers' holdings read in one statement.
        const due = trx("customer_state_changes").where("run_at", "<=", new Date()).orderBy("run_at").limit(BATCH).forUpdate().skipLocked().select("customer_id").toSQL();
        const held = holdingsOf(trx, trx.select("customer_id").from("due")).toSQL();
        const { rows } = await trx.raw<{ rows: { customer_id: string; holdings: CustomerWithHoldings | null }[] }>(
          `with due as (${due.sql}) select due.customer_id, to_json(held) as holdings from due left join (${held.sql}) held on held.id = due.customer_id`,
          [...due.bindings, ...held.bindings] as Knex.RawBinding[],
        );
        if (rows.length === 0) return 0;
        const changes = new ChangeSet(outbox, trx, { batch: true }).change(trx("customer_state_changes").whereIn("customer_id", rows.map((row) => row.customer_id)).delete());
        for (const { holdings } of rows) {
          if (holdings && holdings.deleted_at === null) changes.announce("customer.state_changed", holdings.organization_id, customerStateJson(rowsFromJson<CustomerWithHoldings>([holdings], ["created_at", "modified_at", "deleted_at"])[0] as CustomerWithHoldings));
        }
        await changes.write();
        return rows.length;
      }),
    );
  }
}
