import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { atLeast, atMost, email, optionalUrl, required, says, someName, trimmed } from "../forms/schemas";
import { metadataText } from "../forms/metadata";

/** The organization forms' rules: its name, slug, logo and metadata, invitations and teams. Their own module: the sign-in page does not load them. */

const messages = defineMessages({
  aTeamName: { id: "forms.required.aTeamName", defaultMessage: "Enter a team name" },
  slugCharacters: { id: "forms.slug.characters", defaultMessage: "Use lower-case letters, digits and single hyphens" },
});

/** better-auth's organization slugs: lower-case letters, digits and hyphens. */
export const slug = trimmed(z.minLength(2, atLeast(2)), z.maxLength(48, atMost(48)), z.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, says(messages.slugCharacters)));

export const organizationForm = z.object({ name: someName, slug, logo: optionalUrl, metadata: metadataText });
export type OrganizationForm = z.infer<typeof organizationForm>;

export const ROLES = ["member", "admin", "owner"] as const;
export const inviteForm = z.object({ email, role: z.enum(ROLES), teamId: z.string() });
export const teamForm = z.object({ name: required(messages.aTeamName) });
