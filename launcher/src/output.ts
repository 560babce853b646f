import { prettyFactory } from "pino-pretty";

const COLORS = [36, 35, 33, 32, 34, 96, 95];
const NAME_WIDTH = 21;

export type LogFormat = "pretty" | "json";

/**
 * Turns the JSON lines a process writes into `name │ 14:02:11 INFO  message` lines, each process
 * in its own colour on a terminal; anything that is not a JSON log line passes through as is. With
 * `json`, lines pass through unchanged, except that one replica of several (`billing#2`) adds its
 * name as `replica`.
 */
export function linePrinter(name: string, index: number, format: LogFormat): (line: string) => void {
  const replicaField = name.includes("#") ? `{"replica":${JSON.stringify(name)},` : null;
  const colorize = Boolean(process.stdout.isTTY);
  const pretty = prettyFactory({ colorize, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname,service", singleLine: true });
  const label = name.padEnd(NAME_WIDTH).slice(0, NAME_WIDTH);
  const prefix = colorize ? `\u001b[${COLORS[index % COLORS.length]}m${label}\u001b[0m│ ` : `${label}│ `;
  return (line) => {
    if (line.trim() === "") return;
    if (format === "json") {
      process.stdout.write(replicaField && line.startsWith('{"') ? `${replicaField}${line.slice(1)}\n` : `${line}\n`);
      return;
    }
    let text = line;
    if (line.startsWith("{")) {
      try {
        text = pretty(JSON.parse(line)).trimEnd();
      } catch {
        text = line;
      }
    }
    // A mail printed for lack of SMTP spans lines; each keeps its process's prefix.
    process.stdout.write(`${text.split("\n").map((part) => `${prefix}${part}`).join("\n")}\n`);
  };
}
