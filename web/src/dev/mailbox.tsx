import { useQuery } from "@tanstack/react-query";
import { orThrow } from "../api/auth-client";
import { request } from "../api/client";
import { RequireSession } from "../shell";
import { Alert, Button, EmptyState, Loading, Page } from "../ui/components";

interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
  sent_at: string | null;
}

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
  const mails = useQuery({ queryKey: ["mailbox"], queryFn: () => orThrow(request<Mail[]>("/api/auth/dev/mailbox")), refetchInterval: 5_000 });
  return (
    <Page
      title="Development mailbox"
      description="Mail Tollgate sent, newest first."
      actions={
        <Button variant="secondary" busy={mails.isFetching} onClick={() => void mails.refetch()}>
          Refresh
        </Button>
      }
    >
      {mails.isPending && <Loading what="the mailbox" />}
      {mails.error && (
        <Alert tone="error">
          {mails.error.failure.status === 404
            ? "The mailbox is off. Start Tollgate with DEV_MAILBOX=true (only while it is on localhost) to read mail here; without SMTP_URL, mail is also printed on the console that started Tollgate."
            : mails.error.message}
        </Alert>
      )}
      {mails.data?.length === 0 && <EmptyState title="No mail yet.">Sign up, invite someone or reset a password, and the mail shows up here.</EmptyState>}
      <ul className="list">
        {mails.data?.map((mail) => (
          <li key={mail.id} className="mail">
            <p className="mail-head">
              <strong>{mail.subject}</strong>
              <span className="muted">
                to {mail.to} · {mail.sent_at ? new Date(mail.sent_at).toLocaleString() : "queued"}
              </span>
            </p>
            <pre className="mail-text">{mail.text}</pre>
            {mail.links.length > 0 && (
              <ul className="mail-links">
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
    </Page>
  );
}
