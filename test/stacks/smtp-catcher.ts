import { connect, createServer, type AddressInfo, type Socket } from "node:net";
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
  /** A failure to answer a message to `recipients` with instead of taking it, as a struggling server would; undefined takes it. */
  refuse?: (recipients: string[]) => { code: number; message: string } | undefined;
  /** How long taking each message takes. */
  delayMs?: number;
  /**
   * Refusals go out with the NUL characters in their message, as a misbehaving server's may: smtp-server
   * itself turns them into spaces, so a relay in front of it puts them back.
   */
  nulInReplies?: boolean;
}

/** What smtp-server is given in place of a NUL, for the relay to turn back into one. */
const NUL_PLACEHOLDER = "<nul>";

/** A relay on local port `listenPort` (0: any) to `port`, writing a NUL where the server's replies say NUL_PLACEHOLDER. */
async function nulRelay(port: number, listenPort: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const server = connect(port, "127.0.0.1");
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => [client, server].forEach((either) => either.destroy()));
    }
    client.pipe(server);
    server.on("data", (chunk: Buffer) => client.write(chunk.toString("latin1").replaceAll(NUL_PLACEHOLDER, "\u0000"), "latin1"));
    server.on("end", () => client.end());
  });
  await new Promise<void>((resolve) => relay.listen(listenPort, "127.0.0.1", resolve));
  return {
    port: (relay.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      relay.close(() => resolve());
    }),
  };
}

/** A real SMTP server on a local port that keeps what it is sent, as a mail provider would. */
export async function startSmtpCatcher({ port = 0, refuse, delayMs = 0, nulInReplies = false }: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const mails: ParsedMail[] = [];
  const taken = new Set<ParsedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      simpleParser(stream).then(
        async (mail) => {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          const refusal = refuse?.(session.envelope.rcptTo.map((to) => to.address));
          const message = nulInReplies ? refusal?.message.replaceAll("\u0000", NUL_PLACEHOLDER) : refusal?.message;
          if (refusal) return done(Object.assign(new Error(message), { responseCode: refusal.code }));
          mails.push(mail);
          done();
        },
        (error: Error) => done(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(nulInReplies ? 0 : port, "127.0.0.1", resolve));
  const { port: bound } = server.server.address() as AddressInfo;
  const relay = nulInReplies ? await nulRelay(bound, port) : null;
  return {
    url: `smtp://127.0.0.1:${relay?.port ?? bound}`,
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
    async close() {
      await relay?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The first link in a mail's text that goes to `path`. */
export function linkTo(mail: ParsedMail, path: string): string {
  const link = (mail.text ?? "").match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname.startsWith(path));
  if (!link) throw new Error(`no link to ${path} in: ${mail.text}`);
  return link;
}
