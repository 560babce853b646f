import type { CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import type { MeterRow } from "../meters/meters.sql.js";
import { meterJson } from "../meters/output.js";
import type { CustomerMeterRow } from "./customer-meters.sql.js";

/** What the customer consumed, was credited, and has left (negative once they use more than their credits). */
const standingJson = (row: CustomerMeterRow) => ({
  id: row.id,
  created_at: row.created_at,
  modified_at: row.modified_at,
  customer_id: row.customer_id,
  meter_id: row.meter_id,
  consumed_units: row.consumed_units,
  credited_units: row.credited_units,
  balance: row.credited_units - row.consumed_units,
});

/** A customer meter as the seller sees it (Polar's CustomerMeter). */
export const customerMeterJson = (row: CustomerMeterRow, customer: CustomerRow, meter: MeterRow) => ({ ...standingJson(row), customer: customerJson(customer), meter: meterJson(meter) });

/** A customer meter as the customer sees it in the portal (Polar's CustomerCustomerMeter). */
export const portalCustomerMeterJson = (row: CustomerMeterRow, meter: MeterRow) => ({
  ...standingJson(row),
  meter: { created_at: meter.created_at, modified_at: meter.modified_at, id: meter.id, name: meter.name },
});
