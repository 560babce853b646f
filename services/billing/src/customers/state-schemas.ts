import { z } from "zod";
import { CustomerStateBenefitGrant } from "../benefits/schemas.js";
import { CustomerStateSubscription, NoMeters } from "../subscriptions/schemas.js";
import { Customer } from "./schemas.js";

/**
 * Everything a customer has now. Apart from schemas.ts: it is made of subscriptions' and benefits'
 * schemas, which are made of Customer, and modules that import each other see each other half made.
 */
export const CustomerState = Customer.extend({
  active_subscriptions: z.array(CustomerStateSubscription),
  granted_benefits: z.array(CustomerStateBenefitGrant),
  active_meters: NoMeters,
}).meta({ id: "CustomerState" });
