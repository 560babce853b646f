import { on, type ConsumerDefinition } from "@tollgate/kit";
import { userCreated, userDeleted, userUpdated } from "@tollgate/proto";
import { deletePerson, upsertPerson } from "./users.sql.js";

const personFacts = (user: { id: string; email: string; email_verified: boolean }) => ({
  user_id: user.id,
  email: user.email,
  email_verified: user.email_verified,
});

/** Keeps the people projection in step with auth's user events. */
export function peopleConsumer(): ConsumerDefinition {
  return {
    name: "billing-people",
    handlers: [
      on(userCreated, async (event, { trx }) => {
        await upsertPerson(trx, personFacts(event.data));
      }),
      on(userUpdated, async (event, { trx }) => {
        await upsertPerson(trx, personFacts(event.data));
      }),
      on(userDeleted, async (event, { trx }) => {
        await deletePerson(trx, event.data.id);
      }),
    ],
  };
}
