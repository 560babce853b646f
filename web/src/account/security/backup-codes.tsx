import { defineMessages, useIntl } from "react-intl";
import { Alert, Button } from "../../ui/components";
import { CopyButton } from "../../ui/copy-button";

const messages = defineMessages({
  title: { id: "account.twoFactor.backupCodes.title", defaultMessage: "Your backup codes" },
  keepThem: {
    id: "account.twoFactor.backupCodes.keepThem",
    defaultMessage: "Keep these codes somewhere safe: each one signs you in once if you lose your phone. They are shown only now.",
  },
  copyLabel: { id: "account.twoFactor.backupCodes.copy", defaultMessage: "Copy the backup codes" },
  download: { id: "account.twoFactor.backupCodes.download", defaultMessage: "Download" },
  done: { id: "account.twoFactor.backupCodes.done", defaultMessage: "I have saved them" },
});

/** Offers the codes as a text file, one a line. */
function download(codes: string[]) {
  const url = URL.createObjectURL(new Blob([`${codes.join("\n")}\n`], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "tollgate-backup-codes.txt";
  link.click();
  URL.revokeObjectURL(url);
}

/** Backup codes, shown once, with ways to keep them. */
export function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { formatMessage } = useIntl();
  return (
    <div className="backup-codes">
      <h3>{formatMessage(messages.title)}</h3>
      <Alert tone="info">{formatMessage(messages.keepThem)}</Alert>
      <ul className="backup-code-list" aria-label={formatMessage(messages.title)}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton text={codes.join("\n")} label={formatMessage(messages.copyLabel)} />
        <Button variant="secondary" onClick={() => download(codes)}>
          {formatMessage(messages.download)}
        </Button>
        <Button onClick={onDone}>{formatMessage(messages.done)}</Button>
      </div>
    </div>
  );
}
