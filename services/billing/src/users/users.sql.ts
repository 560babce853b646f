import type { Knex } from "@tollgate/kit";

/** A Tollgate user, as far as billing needs to know them: whose purchases are theirs. */
export interface PersonRow {
  user_id: string;
  email: string;
  email_verified: boolean;
  created_at: Date;
  modified_at: Date | null;
}

export type PersonFacts = Pick<PersonRow, "user_id" | "email" | "email_verified">;

export const findPerson = (db: Knex, userId: string) => db<PersonRow>("people").where({ user_id: userId }).first();

/** E-mails are kept lower-cased, so purchases match them whatever case the user typed. */
export const upsertPerson = (db: Knex, person: PersonFacts) =>
  db<PersonRow>("people")
    .insert({ ...person, email: person.email.toLowerCase() })
    .onConflict("user_id")
    .merge({ email: person.email.toLowerCase(), email_verified: person.email_verified, modified_at: new Date() });

export const deletePerson = (db: Knex, userId: string) => db<PersonRow>("people").where({ user_id: userId }).delete();
