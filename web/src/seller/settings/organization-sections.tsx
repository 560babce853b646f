import { TestClockCard } from "../../billing/test-clock";
import { InvitationsCard, MembersCard } from "../../organizations/members";
import { WithOrganization } from "../../organizations/loaded";
import { SettingsCard } from "../../organizations/settings";
import { TeamsCard } from "../../organizations/teams";
import { TwoFactorRequirementCard } from "../../organizations/two-factor";
import { RequireSession } from "../../shell";
import { useSeller } from "../space";

/**
 * The organization's own settings, in the console's: its name and address, its members and
 * invitations, its teams (the same cards as at /organizations/{slug}), for the signed-in member's role.
 */
export function OrganizationSection({ tab }: { tab: "organization" | "members" | "teams" }) {
  const seller = useSeller();
  return (
    <RequireSession>
      {(session) => (
        <WithOrganization slug={seller.slug}>
          {(organization) => {
            const role = organization.members.find((member) => member.userId === session.user.id)?.role;
            if (tab === "members") {
              return (
                <div className="stack">
                  <MembersCard organization={organization} role={role} session={session} />
                  <InvitationsCard organization={organization} role={role} />
                </div>
              );
            }
            if (tab === "teams") return <TeamsCard organization={organization} role={role} />;
            return (
              <div className="stack">
                <SettingsCard organization={organization} role={role} />
                <TwoFactorRequirementCard organization={organization} role={role} session={session} />
                <TestClockCard organizationId={organization.id} role={role} />
              </div>
            );
          }}
        </WithOrganization>
      )}
    </RequireSession>
  );
}
