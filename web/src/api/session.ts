import { useQuery } from "@tanstack/react-query";
import type { Session } from "./auth-client";
import { request } from "./client";
import { authKeys } from "../auth/queries";

/** The fields of better-auth's user and session that its own client turns into Dates. */
const DATE_FIELDS = ["createdAt", "updatedAt", "expiresAt", "banExpires"];

function withDates<Record extends object>(record: Record): Record {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, DATE_FIELDS.includes(key) && typeof value === "string" ? new Date(value) : value])) as Record;
}

/**
 * The signed-in person's session (null: nobody), as better-auth's get-session answers it. Read
 * without better-auth's client, so that the pages every visitor opens first (sign-in, checkout)
 * load without it; once loaded for something it does, that client refreshes this query.
 */
export function useSession() {
  return useQuery({
    queryKey: authKeys.session,
    queryFn: async (): Promise<Session | null> => {
      const answer = await request<Session | null>("/api/auth/get-session");
      return answer && { session: withDates(answer.session), user: withDates(answer.user) };
    },
  });
}
