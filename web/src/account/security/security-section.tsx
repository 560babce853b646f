import { useEffect, useRef } from "react";
import { defineMessages, useIntl } from "react-intl";
import type { Session } from "../../api/auth-client";
import { SessionsCard } from "../session-cards";
import { ApiKeysCard } from "./api-keys-card";
import { PasskeysCard } from "./passkeys-card";
import { TwoFactorCard } from "./two-factor-card";

/** Where links to the account's security land (an organization that requires two-factor sends its members here). */
export const SECURITY_SECTION_ID = "security";

const messages = defineMessages({
  title: { id: "account.security.title", defaultMessage: "Security" },
});

/** How the account is protected beyond its password: its second factors, where it is signed in, and its API keys. */
export function SecuritySection({ session }: { session: Session }) {
  const { formatMessage } = useIntl();
  const section = useRef<HTMLElement>(null);
  // The section appears only once the session is known, after the browser looked for the address's anchor.
  useEffect(() => {
    if (window.location.hash === `#${SECURITY_SECTION_ID}`) section.current?.scrollIntoView();
  }, []);
  return (
    <section ref={section} id={SECURITY_SECTION_ID} className="stack account-section" aria-labelledby={`${SECURITY_SECTION_ID}-title`}>
      <h2 id={`${SECURITY_SECTION_ID}-title`} className="section-title">
        {formatMessage(messages.title)}
      </h2>
      <TwoFactorCard session={session} />
      <PasskeysCard />
      <SessionsCard session={session} />
      <ApiKeysCard />
    </section>
  );
}
