import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { LinkedOrganizationMember, OrganizationLink } from "../api/wire";

const messages = defineMessages({
  label: { id: "linkedMembers.label", defaultMessage: "The organization's members and their seats" },
  seated: { id: "linkedMembers.seated", defaultMessage: "Has a seat" },
  refused: { id: "linkedMembers.refused", defaultMessage: "Waiting for a seat" },
  left: { id: "linkedMembers.left", defaultMessage: "Left the organization" },
  unknownEmail: { id: "linkedMembers.unknownEmail", defaultMessage: "A member" },
  linkedTo: defineMessage<{ organization: string }>({ id: "linkedMembers.linkedTo", defaultMessage: "Seats follow the members of {organization}: whoever joins it takes a free seat, whoever leaves gives theirs back." }),
  awaiting: { id: "linkedMembers.awaiting", defaultMessage: "Waiting for an owner of the team's organization to consent." },
});

const STATUS = { seated: messages.seated, refused: messages.refused, left: messages.left } as const;

/** The members of a linked organization as the team's seats see them: who holds one, who waits and why. */
export function LinkedMembers({ members }: { members: LinkedOrganizationMember[] }) {
  const { formatMessage } = useIntl();
  return (
    <ul className="list" aria-label={formatMessage(messages.label)}>
      {members.map((member) => (
        <li key={member.user_id} className="list-row">
          <p className="team-who">
            <span translate="no">{member.email ?? formatMessage(messages.unknownEmail)}</span> <span className={member.status === "seated" ? "badge" : "badge badge-muted"}>{formatMessage(STATUS[member.status])}</span>
          </p>
          {member.reason && <p className="muted">{member.reason}</p>}
        </li>
      ))}
    </ul>
  );
}

/** What a link is now, in a sentence, and its members once there is an organization. */
export function LinkSummary({ link }: { link: OrganizationLink }) {
  const { formatMessage } = useIntl();
  if (!link.organization) return <p className="muted">{formatMessage(messages.awaiting)}</p>;
  return (
    <>
      <p>{formatMessage(messages.linkedTo, { organization: link.organization.name })}</p>
      <LinkedMembers members={link.members} />
    </>
  );
}
