import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";
import { CustomerStateBenefitGrant } from "../benefits/schemas.js";
import { CustomerStateSubscription } from "../subscriptions/schemas.js";
import { Customer } from "../customers/schemas.js";

/** The customer's standing on one of their meters. */
const CustomerStateMeter = z
  .strictObject({ id: z.string(), created_at: isoTimestamp(), modified_at: isoTimestamp().nullable(), meter_id: z.string(), consumed_units: z.number(), credited_units: z.int(), balance: z.number() })
  .meta({ id: "CustomerStateMeter" });

/** Everything a customer has now: a read model over customers, their subscriptions, benefits and meters. */
export const CustomerState = Customer.extend({
  active_subscriptions: z.array(CustomerStateSubscription),
  granted_benefits: z.array(CustomerStateBenefitGrant),
  active_meters: z.array(CustomerStateMeter),
}).meta({ id: "CustomerState" });
