import { randomId, type Knex } from "@tollgate/kit";

export interface PasskeyRow {
  id: string;
  user_id: string;
  name: string | null;
  /** base64url, as the authenticator names the credential. */
  credential_id: string;
  /** The COSE public key, base64. */
  public_key: string;
  counter: number;
  device_type: string;
  backed_up: boolean;
  /** Comma-separated, as better-auth keeps them. */
  transports: string | null;
  aaguid: string | null;
  created_at: Date;
}

export type NewPasskey = Omit<PasskeyRow, "id" | "created_at">;

export async function insertPasskey(db: Knex, passkey: NewPasskey): Promise<PasskeyRow> {
  const [row] = await db<PasskeyRow>("passkeys").insert({ id: randomId(32), ...passkey }).returning("*");
  if (!row) throw new Error("insert into passkeys returned no row");
  return row;
}

export const listUserPasskeys = (db: Knex, userId: string) => db<PasskeyRow>("passkeys").where({ user_id: userId }).orderBy("created_at", "asc");

export const findPasskeyById = (db: Knex, id: string) => db<PasskeyRow>("passkeys").where({ id }).first();

export const findPasskeyByCredentialId = (db: Knex, credentialId: string) => db<PasskeyRow>("passkeys").where({ credential_id: credentialId }).first();

export async function renamePasskey(db: Knex, id: string, name: string): Promise<PasskeyRow | undefined> {
  const [row] = await db<PasskeyRow>("passkeys").where({ id }).update({ name }).returning("*");
  return row;
}

export const deletePasskey = (db: Knex, id: string) => db<PasskeyRow>("passkeys").where({ id }).delete();

/**
 * Records a sign-in's counter. The counter must move forward (an authenticator that keeps none
 * always says 0), checked in the statement itself so two sign-ins with one assertion cannot both pass.
 */
export async function advanceCounter(db: Knex, id: string, counter: number): Promise<boolean> {
  const updated = await db<PasskeyRow>("passkeys")
    .where({ id })
    .andWhere("counter", counter === 0 ? "=" : "<", counter)
    .update({ counter });
  return updated === 1;
}
