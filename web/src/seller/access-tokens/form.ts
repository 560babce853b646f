import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { atMost, says, trimmed } from "../../forms/schemas";

const messages = defineMessages({
  aComment: { id: "forms.accessToken.comment", defaultMessage: "Say what the token is for" },
  aScope: { id: "forms.accessToken.scopes", defaultMessage: "Choose at least one scope" },
});

export const TOKEN_LIFETIMES = ["7", "30", "90", "365", "never"] as const;

/** A new organization access token: what it is for, how long it lives (days), and what it may do. */
export const accessTokenForm = z.object({
  comment: trimmed(z.minLength(1, says(messages.aComment)), z.maxLength(255, atMost(255))),
  lifetime: z.enum(TOKEN_LIFETIMES),
  scopes: z.array(z.string()).check(z.minLength(1, says(messages.aScope))),
});
export type AccessTokenForm = z.infer<typeof accessTokenForm>;
