import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { authClient, viaAuth, type Session } from "./api/auth-client";
import { organizationsQuery } from "./organizations/queries";
import { Button } from "./ui/components";

/** The header's menus for a signed-in person, loaded apart from the shell (see Shell). */
const messages = defineMessages({
  organizationLabel: defineMessage<{ name: string }>({ id: "shell.organization.label", defaultMessage: "Organization: {name}" }),
  noOrganization: { id: "shell.organization.none", defaultMessage: "none chosen" },
  organizations: { id: "shell.organization.menu", defaultMessage: "Organizations" },
  loading: { id: "shell.organization.loading", defaultMessage: "Loading…" },
  current: { id: "shell.organization.current", defaultMessage: "(current)" },
  newOrganization: { id: "shell.organization.new", defaultMessage: "New organization…" },
  accountMenu: defineMessage<{ name: string }>({ id: "shell.userMenu.label", defaultMessage: "Account menu for {name}" }),
  account: { id: "shell.userMenu.account", defaultMessage: "Account" },
  purchases: { id: "shell.userMenu.purchases", defaultMessage: "Purchases" },
  signOut: { id: "shell.userMenu.signOut", defaultMessage: "Sign out" },
});

export function OrganizationSwitcher({ session }: { session: Session }) {
  const organizations = useQuery(organizationsQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { formatMessage } = useIntl();
  const active = organizations.data?.find((organization) => organization.id === session.session.activeOrganizationId);
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" aria-label={formatMessage(messages.organizationLabel, { name: active?.name ?? formatMessage(messages.noOrganization) })}>
          {active?.name ?? formatMessage(messages.organizations)} ▾
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start">
          {organizations.isPending && <DropdownMenu.Label className="menu-label">{formatMessage(messages.loading)}</DropdownMenu.Label>}
          {organizations.data?.map((organization) => (
            <DropdownMenu.Item
              key={organization.id}
              className="menu-item"
              onSelect={() => {
                void viaAuth(() => authClient.organization.setActive({ organizationId: organization.id })).then(async () => {
                  await queryClient.invalidateQueries();
                  await navigate({ to: "/organizations/$slug", params: { slug: organization.slug } });
                });
              }}
            >
              {organization.name}
              {organization.id === active?.id && <span className="sr-only"> {formatMessage(messages.current)}</span>}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => void navigate({ to: "/organizations/new" })}>
            {formatMessage(messages.newOrganization)}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function UserMenu({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { formatMessage } = useIntl();
  const signOut = async () => {
    await viaAuth(() => authClient.signOut());
    queryClient.clear();
    await navigate({ to: "/sign-in" });
  };
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" aria-label={formatMessage(messages.accountMenu, { name: session.user.name })}>
          {session.user.name} ▾
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end">
          <DropdownMenu.Item className="menu-item" onSelect={() => void navigate({ to: "/account" })}>
            {formatMessage(messages.account)}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => void navigate({ to: "/purchases" })}>
            {formatMessage(messages.purchases)}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => void signOut()}>
            {formatMessage(messages.signOut)}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
