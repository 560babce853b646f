import { z } from "zod";
import { defineEndpoint, HttpError, type Endpoint } from "@tollgate/kit";
import { userUpdated } from "@tollgate/proto";
import type { Auth } from "../auth.js";
import { assertTrustedRedirect } from "../http/callback-url.js";
import { requireSession } from "../sessions/current-session.js";
import { queueVerificationMail, withMail } from "../verification/send.js";
import { userEventData } from "./user-output.js";
import { findUserByEmail, updateUser } from "./users.sql.js";

export function changeEmailEndpoints(auth: Auth): Endpoint[] {
  return [
    defineEndpoint(
      "/change-email",
      { method: "POST", body: z.object({ newEmail: z.email(), callbackURL: z.string().optional() }) },
      async ({ body, identity, req }) => {
        const { user } = await requireSession(auth, identity, req);
        assertTrustedRedirect(auth.config, body.callbackURL);
        const newEmail = body.newEmail.toLowerCase();
        if (newEmail === user.email) throw new HttpError(400, "BAD_REQUEST", "Email is the same");
        // Taken by someone else: answer as if it worked, so the form cannot probe for accounts.
        if (await findUserByEmail(auth.db, newEmail)) return { status: true };
        await withMail(auth, async (trx) => {
          const changed = await updateUser(trx, user.id, { email: newEmail, email_verified: false });
          if (!changed) return;
          await auth.outbox.emit(trx, userUpdated, userEventData(changed));
          await queueVerificationMail(auth, trx, changed, body.callbackURL);
        });
        return { status: true };
      },
    ),
  ];
}
