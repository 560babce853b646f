import { useQuery } from "@tanstack/react-query";
import { defineMessages, useIntl } from "react-intl";
import { Card } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { TeamMembers, type MemberChanges } from "../../ui/team-members";
import { useSeller } from "../space";
import { membersQuery, useAddMember, useRemoveMember, useUpdateMember } from "./queries";

const messages = defineMessages({
  members: { id: "seller.customer.team.members", defaultMessage: "Members" },
  membersText: { id: "seller.customer.team.membersText", defaultMessage: "The people of this team. Each signs in to the portal on their own; the owner and billing managers manage the team there too." },
  loadingMembers: { id: "seller.customer.team.loadingMembers", defaultMessage: "Loading the members…" },
});

/** A team customer's members: the seller adds them, changes their roles and removes them. */
export function TeamMembersCard({ customerId }: { customerId: string }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const members = useQuery(membersQuery(customerId));
  const add = useAddMember();
  const update = useUpdateMember();
  const remove = useRemoveMember();
  const changes: MemberChanges = {
    add: (fields) => add.mutateAsync({ customerId, fields }),
    changeRole: (member, role) => update.mutateAsync({ customerId, memberId: member.id, change: { role } }),
    remove: (member) => remove.mutateAsync({ customerId, memberId: member.id }),
  };
  return (
    <Card title={formatMessage(messages.members)} description={formatMessage(messages.membersText)}>
      <QueryState query={members} loading={messages.loadingMembers}>
        {({ items }) => <TeamMembers members={items} changes={seller.mayChange ? changes : undefined} />}
      </QueryState>
    </Card>
  );
}
