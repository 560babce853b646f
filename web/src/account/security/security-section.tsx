import { useId } from "react";
import { defineMessages, useIntl } from "react-intl";
import type { Session } from "../../api/auth-client";
import { TwoFactorCard } from "./two-factor-card";

const messages = defineMessages({
  title: { id: "account.security.title", defaultMessage: "Security" },
});

/** How the account is protected beyond its password. */
export function SecuritySection({ session }: { session: Session }) {
  const { formatMessage } = useIntl();
  const id = useId();
  return (
    <section className="stack account-section" aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {formatMessage(messages.title)}
      </h2>
      <TwoFactorCard session={session} />
    </section>
  );
}
