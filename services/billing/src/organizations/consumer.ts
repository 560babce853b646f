import { organizationCreated, organizationDeleted, organizationUpdated, accessTokenRevoked } from "@tollgate/proto";
import { on, type ConsumerDefinition, type Outbox } from "@tollgate/kit";
import { deleteOrganizationTokens } from "../access-tokens/tokens.sql.js";
import { emitBillingEvent } from "../events.js";
import { sellerJson } from "./output.js";
import { deleteSeller, findSeller, insertSeller, updateSeller } from "./organizations.sql.js";

/** Every organization is a seller: created, renamed and removed as the organization service says. */
export function sellersConsumer(outbox: Outbox): ConsumerDefinition {
  return {
    name: "billing-sellers",
    handlers: [
      on(organizationCreated, async (event, { trx }) => {
        await insertSeller(trx, { id: event.data.id, name: event.data.name, slug: event.data.slug });
      }),
      on(organizationUpdated, async (event, { trx }) => {
        const existing = await findSeller(trx, event.data.id);
        if (!existing) {
          // Created before billing saw it (or its creation event is still to come): take it as it is now.
          await insertSeller(trx, { id: event.data.id, name: event.data.name, slug: event.data.slug });
          return;
        }
        if (existing.name === event.data.name && existing.slug === event.data.slug) return;
        const seller = await updateSeller(trx, event.data.id, { name: event.data.name, slug: event.data.slug });
        if (seller) await emitBillingEvent(outbox, trx, "organization.updated", seller.id, sellerJson(seller));
      }),
      on(organizationDeleted, async (event, { trx }) => {
        await deleteSeller(trx, event.data.id);
        for (const token of await deleteOrganizationTokens(trx, event.data.id)) await outbox.emit(trx, accessTokenRevoked, token);
      }),
    ],
  };
}
