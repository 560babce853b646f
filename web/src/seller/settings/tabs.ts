import { defineMessages } from "react-intl";

/** The console settings' sections, one shown at a time, named in the address (`?tab=members`); selling's when none is. */
export const SETTINGS_TABS = ["selling", "organization", "members", "teams"] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export const settingsTabSearch = (search: Record<string, unknown>): { tab?: SettingsTab } => {
  const tab = SETTINGS_TABS.find((known) => known === search.tab);
  return tab ? { tab } : {};
};

export const settingsTabNames = defineMessages({
  selling: { id: "seller.settings.tab.selling", defaultMessage: "Selling and e-mails" },
  organization: { id: "seller.settings.tab.organization", defaultMessage: "Organization" },
  members: { id: "seller.settings.tab.members", defaultMessage: "Members" },
  teams: { id: "seller.settings.tab.teams", defaultMessage: "Teams" },
});
