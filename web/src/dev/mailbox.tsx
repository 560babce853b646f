import { useQuery } from "@tanstack/react-query";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { mailboxQuery } from "./queries";
import { longDateTime } from "../i18n/format";
import { RequireSession } from "../shell";
import { Button, EmptyState, Page } from "../ui/components";
import { QueryState } from "../ui/query-state";

const messages = defineMessages({
  title: { id: "mailbox.title", defaultMessage: "Development mailbox" },
  description: { id: "mailbox.description", defaultMessage: "Mail Tollgate sent, newest first." },
  refresh: { id: "mailbox.refresh", defaultMessage: "Refresh" },
  loading: { id: "mailbox.loading", defaultMessage: "Loading the mailbox…" },
  off: defineMessage<{ mailboxSetting: string; smtpSetting: string }>({
    id: "mailbox.off",
    defaultMessage:
      "The mailbox is off. Start Tollgate with {mailboxSetting} (only while it is on localhost) to read mail here; without {smtpSetting}, mail is also printed on the console that started Tollgate.",
  }),
  empty: { id: "mailbox.empty", defaultMessage: "No mail yet." },
  emptyHint: { id: "mailbox.emptyHint", defaultMessage: "Sign up, invite someone or reset a password, and the mail shows up here." },
  sentTo: defineMessage<{ to: string; when: string }>({ id: "mailbox.sentTo", defaultMessage: "to {to} · {when}" }),
  queued: { id: "mailbox.queued", defaultMessage: "queued" },
});

/** Links in mail name the public address; followed here they stay on whatever address the app is open at. */
const onThisSite = (link: string) => {
  const url = new URL(link);
  return url.pathname.startsWith("/") ? `${url.pathname}${url.search}${url.hash}` : link;
};

/**
 * What Tollgate sent, for platform admins of a local development stack (DEV_MAILBOX=true): the links
 * in it open accounts, so the service offers it to nobody else.
 */
export function MailboxScreen() {
  return <RequireSession admin>{() => <Mailbox />}</RequireSession>;
}

function Mailbox() {
  const { formatMessage } = useIntl();
  const mails = useQuery(mailboxQuery);
  return (
    <Page
      title={formatMessage(messages.title)}
      description={formatMessage(messages.description)}
      actions={
        <Button variant="secondary" busy={mails.isFetching} onClick={() => void mails.refetch()}>
          {formatMessage(messages.refresh)}
        </Button>
      }
    >
      <QueryState
        query={mails}
        loading={messages.loading}
        failure={(error) => (error.failure.status === 404 ? formatMessage(messages.off, { mailboxSetting: "DEV_MAILBOX=true", smtpSetting: "SMTP_URL" }) : error.message)}
        isEmpty={(list) => list.length === 0}
        empty={<EmptyState title={formatMessage(messages.empty)}>{formatMessage(messages.emptyHint)}</EmptyState>}
      >
        {(list) => (
          <ul className="list">
            {list.map((mail) => (
              <li key={mail.id} className="mail">
                <p className="mail-head">
                  <strong translate="no">{mail.subject}</strong>
                  <span className="muted">
                    {formatMessage(messages.sentTo, { to: mail.to, when: mail.sent_at ? longDateTime(mail.sent_at) : formatMessage(messages.queued) })}
                  </span>
                </p>
                <pre className="mail-text" translate="no">{mail.text}</pre>
                {mail.links.length > 0 && (
                  <ul className="mail-links" translate="no">
                    {mail.links.map((link) => (
                      <li key={link}>
                        <a href={onThisSite(link)}>{link}</a>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Page>
  );
}
