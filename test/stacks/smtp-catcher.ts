import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SmtpCatcher {
  url: string;
  /** Every mail received so far. */
  mails: ParsedMail[];
  /** Every mail to `to` received so far. */
  received(to: string): ParsedMail[];
  /** The next mail to `to` not returned before, waiting for it to arrive. */
  next(to: string, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

const recipient = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((to) => to.value.map((v) => v.address));

export interface SmtpCatcherOptions {
  port?: number;
  /** A failure to answer a message with instead of taking it, as a struggling server would; undefined takes it. */
  refuse?: () => { code: number; message: string } | undefined;
  /** How long taking each message takes. */
  delayMs?: number;
}

/** A real SMTP server on a local port that keeps what it is sent, as a mail provider would. */
export async function startSmtpCatcher({ port = 0, refuse, delayMs = 0 }: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const mails: ParsedMail[] = [];
  const taken = new Set<ParsedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream).then(
        async (mail) => {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          const refusal = refuse?.();
          if (refusal) return done(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
          mails.push(mail);
          done();
        },
        (error: Error) => done(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    received: (to) => mails.filter((mail) => recipient(mail).includes(to)),
    async next(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find((mail) => !taken.has(mail) && recipient(mail).includes(to));
        if (found) {
          taken.add(found);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that goes to `path`. */
export function linkTo(mail: ParsedMail, path: string): string {
  const link = (mail.text ?? "").match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname.startsWith(path));
  if (!link) throw new Error(`no link to ${path} in: ${mail.text}`);
  return link;
}
