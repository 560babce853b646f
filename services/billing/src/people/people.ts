import { on, type ConsumerDefinition, type Knex } from "@tollgate/kit";
import { userCreated, userDeleted, userUpdated } from "@tollgate/proto";

/** A Tollgate user, as far as billing needs to know them: whose purchases are theirs. */
export interface PersonRow {
  user_id: string;
  email: string;
  email_verified: boolean;
  created_at: Date;
  modified_at: Date | null;
}

export const findPerson = (db: Knex, userId: string) => db<PersonRow>("people").where({ user_id: userId }).first();

/** Keeps the people projection in step with auth's user events. */
export function peopleConsumer(): ConsumerDefinition {
  const keep = async (trx: Knex.Transaction, user: { id: string; email: string; email_verified: boolean }) => {
    await trx<PersonRow>("people")
      .insert({ user_id: user.id, email: user.email.toLowerCase(), email_verified: user.email_verified })
      .onConflict("user_id")
      .merge({ email: user.email.toLowerCase(), email_verified: user.email_verified, modified_at: new Date() });
  };
  return {
    name: "billing-people",
    handlers: [
      on(userCreated, (event, { trx }) => keep(trx, event.data)),
      on(userUpdated, (event, { trx }) => keep(trx, event.data)),
      on(userDeleted, async (event, { trx }) => {
        await trx<PersonRow>("people").where({ user_id: event.data.id }).delete();
      }),
    ],
  };
}
