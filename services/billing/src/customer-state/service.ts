import type { Knex } from "@tollgate/kit";
import { customerWithHoldings, type CustomerRow } from "../customers/customers.sql.js";
import type { CustomerStateView } from "../customers/service.js";
import { customerStateJson } from "./output.js";
import { CustomerState } from "./schemas.js";

/** Everything a customer has now, as Polar's CustomerState, served beside the customer (`/v1/customers/{id}/state`). */
export const customerStateView = (db: Knex): CustomerStateView => ({
  response: CustomerState,
  of: async (customer: CustomerRow) => customerStateJson(await customerWithHoldings(db, customer.id)),
});
