import type { Knex } from "@tollgate/kit";
import { customersWithIds } from "../customers/customers.sql.js";
import { metersWithIds } from "../meters/meters.sql.js";
import type { CustomerMeterRow } from "./customer-meters.sql.js";
import { customerMeterJson, portalCustomerMeterJson } from "./output.js";

// The reads the routes make, as the store has them: a customer meter by id, a page of them.
export { findCustomerMeter, pageOfCustomerMeters } from "./customer-meters.sql.js";

/** The customers and meters of these rows, read for all at once. */
async function partsOf(db: Knex, rows: CustomerMeterRow[]) {
  const [customers, meters] = await Promise.all([customersWithIds(db, [...new Set(rows.map((row) => row.customer_id))]), metersWithIds(db, [...new Set(rows.map((row) => row.meter_id))])]);
  const meterOf = (row: CustomerMeterRow) => {
    const meter = meters.find((candidate) => candidate.id === row.meter_id);
    if (!meter) throw new Error(`customer meter ${row.id} has lost its meter`);
    return meter;
  };
  const customerOf = (row: CustomerMeterRow) => {
    const customer = customers.find((candidate) => candidate.id === row.customer_id);
    if (!customer) throw new Error(`customer meter ${row.id} has lost its customer`);
    return customer;
  };
  return { meterOf, customerOf };
}

export async function customerMetersJson(db: Knex, rows: CustomerMeterRow[]) {
  const { meterOf, customerOf } = await partsOf(db, rows);
  return rows.map((row) => customerMeterJson(row, customerOf(row), meterOf(row)));
}

export async function portalCustomerMetersJson(db: Knex, rows: CustomerMeterRow[]) {
  const { meterOf } = await partsOf(db, rows);
  return rows.map((row) => portalCustomerMeterJson(row, meterOf(row)));
}
