import { notFound, type UnitOfWork } from "@tollgate/kit";
import { lockCustomer } from "../customers/customers.sql.js";
import type { CustomerRow } from "../customers/customers.sql.js";
import { ownersOf } from "./members.sql.js";

/**
 * Makes a change to a customer's members and refuses it, undone, unless the customer is left with
 * exactly one owner: someone must always be able to manage the team and hand it on. The rule is
 * checked on the outcome, with the customer locked from before the change until it commits, so two
 * requests at once (one promoting a member while another removes them, two transfers) go one after
 * the other and the second sees what the first did; checked beforehand, each would have seen the
 * other's owner and let both through. The change reads its member again under the lock.
 */
export async function keepingOneOwner<T>(unit: UnitOfWork, customerId: string, refusal: () => Error, change: (customer: CustomerRow) => Promise<T>): Promise<T> {
  const customer = await lockCustomer(unit.db, customerId);
  if (!customer) throw notFound("Customer");
  // A customer without an owner (one whose owner could not be made) may still lose members.
  const hadOwner = (await ownersOf(unit.db, customerId)).length > 0;
  const changed = await change(customer);
  if (hadOwner && (await ownersOf(unit.db, customerId)).length !== 1) throw refusal();
  return changed;
}
