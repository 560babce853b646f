import { z } from "zod";
import { isoTimestamp, listResource, paging, repeated, sorting } from "@tollgate/kit";
import { Customer } from "../customers/schemas.js";
import { customerListFilters } from "../http/list-filters.js";
import { Meter } from "../meters/schemas.js";
import { CUSTOMER_METER_SORTABLE } from "./customer-meters.sql.js";

const standing = {
  id: z.string(),
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  customer_id: z.string(),
  meter_id: z.string(),
  consumed_units: z.number(),
  credited_units: z.int(),
  balance: z.number(),
};

export const CustomerMeter = z.strictObject({ ...standing, customer: Customer, meter: Meter }).meta({ id: "CustomerMeter" });
export const CustomerMeterList = listResource(CustomerMeter, "ListResource_CustomerMeter_");

/** The portal shows the meter by its name only. */
const CustomerCustomerMeterMeter = z
  .strictObject({ created_at: isoTimestamp(), modified_at: isoTimestamp().nullable(), id: z.string(), name: z.string() })
  .meta({ id: "CustomerCustomerMeterMeter" });
export const CustomerCustomerMeter = z.strictObject({ ...standing, meter: CustomerCustomerMeterMeter }).meta({ id: "CustomerCustomerMeter" });
export const CustomerCustomerMeterList = listResource(CustomerCustomerMeter, "ListResource_CustomerCustomerMeter_");

/** The properties a list of customer meters may be sorted by. */
export const CUSTOMER_METER_SORT_KEYS = Object.keys(CUSTOMER_METER_SORTABLE) as (keyof typeof CUSTOMER_METER_SORTABLE)[];

export const CustomerMeterListQuery = z.object({ ...paging, ...customerListFilters, meter_id: repeated(z.string()), sorting: sorting(CUSTOMER_METER_SORT_KEYS, "-modified_at") });

/** The customer's own meters, in the portal: by meter, or by a meter's name. */
export const CustomerCustomerMeterListQuery = z.object({ ...paging, meter_id: repeated(z.string()), query: z.string().optional(), sorting: sorting(CUSTOMER_METER_SORT_KEYS, "-modified_at") });
