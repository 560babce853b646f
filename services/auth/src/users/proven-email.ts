import { randomId, type UnitOfWork } from "@tollgate/kit";
import { userCreated, userUpdated } from "@tollgate/proto";
import { deleteAccounts } from "../accounts/accounts.sql.js";
import { authError } from "../http/errors.js";
import { revokeSessions } from "../sessions/issuance.js";
import { userEventData } from "./output.js";
import { findUserByEmail, insertUser, liftExpiredBan, updateUser, type UserRow } from "./users.sql.js";

/** Who proved they read an address's mail (a magic link, a mailed code), and what they would be called if new. */
export interface EmailProof {
  email: string;
  name?: string;
  image?: string;
}

/**
 * The user a mailed proof signs in, in the caller's unit of work: the address's user, or a new one
 * (better-auth signs up unknown addresses by default), verified either way. An unverified account
 * carried no proof that its password, social links or sessions belong to the mailbox's owner, so
 * they go before the owner gets it, as better-auth's revokeUnprovenAccountAccess does.
 */
export async function ownerOfProvenEmail(unit: UnitOfWork, proof: EmailProof): Promise<{ user: UserRow; isNew: boolean }> {
  const email = proof.email.toLowerCase();
  const found = await findUserByEmail(unit.db, email);
  if (!found) {
    const user = await insertUser(unit.db, { id: randomId(32), email, name: proof.name ?? "", image: proof.image ?? null, email_verified: true });
    unit.announce(userCreated, userEventData(user));
    return { user, isNew: true };
  }
  let user = await liftExpiredBan(unit.db, found);
  if (user.banned) throw authError(403, "BANNED_USER");
  if (!user.email_verified) {
    await deleteAccounts(unit.db, user.id);
    await revokeSessions(unit, { userId: user.id });
    user = (await updateUser(unit.db, user.id, { email_verified: true })) ?? user;
    unit.announce(userUpdated, userEventData(user));
  }
  return { user, isNew: false };
}
