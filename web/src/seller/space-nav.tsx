import * as Dialog from "@radix-ui/react-dialog";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { Button } from "../ui/components";
import { SELLER_NAVIGATION } from "./sections";

const messages = defineMessages({
  navigation: { id: "seller.space.navigation", defaultMessage: "Selling" },
  menu: { id: "seller.space.menu", defaultMessage: "Menu" },
  close: { id: "seller.space.menuClose", defaultMessage: "Close the menu" },
});

/** The console's sections under their groups' names; `onNavigate` is told when one is chosen. */
export function SellerNav({ slug, className, idPrefix, onNavigate }: { slug: string; className: string; idPrefix: string; onNavigate?: () => void }) {
  const { formatMessage } = useIntl();
  return (
    <nav className={className} aria-label={formatMessage(messages.navigation)}>
      {SELLER_NAVIGATION.map((group) => {
        const labelId = `${idPrefix}-${group.label.id}`;
        return (
          <div key={group.label.id} className="nav-group">
            <p className="nav-group-label" id={labelId}>
              {formatMessage(group.label)}
            </p>
            <ul aria-labelledby={labelId}>
              {group.entries.map((entry) => (
                <li key={entry.to}>
                  <Link to={entry.to} params={{ slug }} activeOptions={{ exact: "exact" in entry }} onClick={onNavigate}>
                    {formatMessage(entry.label)}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}

/**
 * The menu button of a narrow window and the drawer it opens: a dialog, so focus stays inside it
 * and Escape closes it, as does choosing where to go.
 */
export function SellerDrawer({ slug }: { slug: string }) {
  const { formatMessage } = useIntl();
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="secondary" className="menu-button">
          {formatMessage(messages.menu)}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="drawer" aria-describedby={undefined}>
          <div className="drawer-head">
            <Dialog.Title className="drawer-title">{formatMessage(messages.menu)}</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="secondary">{formatMessage(messages.close)}</Button>
            </Dialog.Close>
          </div>
          <SellerNav slug={slug} className="seller-nav" idPrefix="drawer" onNavigate={() => setOpen(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
