import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { StatusAnswer } from "../http/schemas.js";
import { requireSession } from "../sessions/current-session.js";
import { authenticationEndpoints } from "./authentication.js";
import { passkeyJson } from "./output.js";
import { deletePasskey, findPasskeyById, listUserPasskeys, renamePasskey } from "./passkeys.sql.js";
import { registrationEndpoints } from "./registration.js";
import { PasskeyDeletion, PasskeyRename, Passkeys, RenamedPasskey } from "./schemas.js";

/** better-auth's passkey plugin: registering, signing in with, listing, renaming and deleting passkeys. */
export function passkeyEndpoints(auth: Parts): Endpoint[] {
  const { db } = auth;

  /** A passkey of the caller's; another's is refused with `foreign`, as better-auth's ownership check does. */
  const ownPasskey = async (id: string, userId: string, foreign: "UNAUTHORIZED" | "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY") => {
    const passkey = await findPasskeyById(db, id);
    if (!passkey) throw authError(404, "PASSKEY_NOT_FOUND");
    if (passkey.user_id !== userId) throw authError(401, foreign);
    return passkey;
  };

  return [
    ...registrationEndpoints(auth),
    ...authenticationEndpoints(auth),

    defineEndpoint(
      "/passkey/list-user-passkeys",
      { method: "GET", response: Passkeys, summary: "List the signed-in user's passkeys", tag: "Passkey" },
      async ({ identity, req }) => {
        const { user } = await requireSession(auth, identity, req);
        return (await listUserPasskeys(db, user.id)).map(passkeyJson);
      },
    ),

    defineEndpoint(
      "/passkey/update-passkey",
      { method: "POST", body: PasskeyRename, response: RenamedPasskey, summary: "Rename one of the signed-in user's passkeys", tag: "Passkey" },
      async ({ body, identity, req }) => {
        const { user } = await requireSession(auth, identity, req);
        const passkey = await ownPasskey(body.id, user.id, "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY");
        const renamed = await renamePasskey(db, passkey.id, body.name);
        if (!renamed) throw authError(404, "PASSKEY_NOT_FOUND");
        return { passkey: passkeyJson(renamed) };
      },
    ),

    defineEndpoint(
      "/passkey/delete-passkey",
      { method: "POST", body: PasskeyDeletion, response: StatusAnswer, summary: "Delete one of the signed-in user's passkeys", tag: "Passkey" },
      async ({ body, identity, req }) => {
        const { user } = await requireSession(auth, identity, req);
        const passkey = await ownPasskey(body.id, user.id, "UNAUTHORIZED");
        await deletePasskey(db, passkey.id);
        return { status: true };
      },
    ),
  ];
}
