import { organizationCreated, organizationDeleted, organizationUpdated, accessTokenRevoked } from "@tollgate/proto";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import { deleteOrganizationTokens } from "../access-tokens/access-tokens.sql.js";
import { announceBilling } from "../events.js";
import { sellerJson } from "./output.js";
import { deleteSeller, findSeller, insertSeller, updateSeller } from "./organizations.sql.js";

/** Every organization is a seller: created, renamed and removed as the organization service says. */
export function sellersConsumer(): ConsumerDefinition {
  return {
    name: "billing-sellers",
    handlers: [
      on(organizationCreated, async (event, { trx }) => {
        await insertSeller(trx, { id: event.data.id, name: event.data.name, slug: event.data.slug });
      }),
      on(organizationUpdated, async (event, { unit }) => {
        const existing = await findSeller(unit.db, event.data.id);
        if (!existing) {
          // Created before billing saw it (or its creation event is still to come): take it as it is now.
          await insertSeller(unit.db, { id: event.data.id, name: event.data.name, slug: event.data.slug });
          return;
        }
        if (existing.name === event.data.name && existing.slug === event.data.slug) return;
        const seller = await updateSeller(unit.db, event.data.id, { name: event.data.name, slug: event.data.slug });
        if (seller) announceBilling(unit, "organization.updated", seller.id, sellerJson(seller));
      }),
      on(organizationDeleted, async (event, { unit }) => {
        await deleteSeller(unit.db, event.data.id);
        for (const token of await deleteOrganizationTokens(unit.db, event.data.id)) unit.announce(accessTokenRevoked, token);
      }),
    ],
  };
}
