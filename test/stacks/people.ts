import { readMailbox } from "./dev-mailbox.js";
import type { AuthStack, Browser } from "./auth.js";

export const password = "correct horse battery staple";

/** Someone with a browser of their own, signed up through the gateway. */
export interface Person extends Browser {
  id: string;
  email: string;
}

/** Follows the verification link the auth service mails, as the owner of the address would. */
export async function verifyAddress(stack: Pick<AuthStack, "auth">, person: Person): Promise<void> {
  await person.client.sendVerificationEmail({ email: person.email });
  const isVerifyLink = (link: string) => link.includes("/api/auth/verify-email");
  const mail = (await readMailbox(stack)).find((entry) => entry.to === person.email.toLowerCase() && entry.links.some(isVerifyLink));
  const token = new URL(mail?.links.find(isVerifyLink) ?? "http://missing").searchParams.get("token");
  if (!token) throw new Error(`no verification mail to ${person.email}`);
  const { error } = await person.client.verifyEmail({ query: { token } });
  if (error) throw new Error(`verification failed: ${JSON.stringify(error)}`);
}

/**
 * Signs someone up, named after their address; their address verified unless told otherwise, since
 * only a verified address may see or answer the invitations sent to it.
 */
export async function signedUp(stack: AuthStack, email: string, { verified = true } = {}): Promise<Person> {
  const browser = stack.browser();
  const { data, error } = await browser.client.signUp.email({ name: email.split("@")[0] ?? email, email, password });
  if (!data) throw new Error(`sign-up failed: ${JSON.stringify(error)}`);
  const person = { ...browser, id: data.user.id, email };
  if (verified) await verifyAddress(stack, person);
  return person;
}

/** A new organization the owner creates, named after its slug. */
export async function organizationOf(owner: Person, slug: string) {
  const { data, error } = await owner.client.organization.create({ name: slug.toUpperCase(), slug });
  if (!data) throw new Error(`create failed: ${JSON.stringify(error)}`);
  return data;
}

/** Invites by e-mail and has the invitee accept, through the client: the usual way in. */
export async function join(owner: Person, organizationId: string, invitee: Person, role: "member" | "admin" | "owner" = "member") {
  const invitation = await owner.client.organization.inviteMember({ email: invitee.email, role, organizationId });
  if (!invitation.data) throw new Error(`invite failed: ${JSON.stringify(invitation.error)}`);
  const accepted = await invitee.client.organization.acceptInvitation({ invitationId: invitation.data.id });
  if (!accepted.data) throw new Error(`accept failed: ${JSON.stringify(accepted.error)}`);
  return accepted.data.member;
}
