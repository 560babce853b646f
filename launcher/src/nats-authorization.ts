import { fileURLToPath } from "node:url";
import { natsPermissions } from "@tollgate/kit";
import { BUS_PROCESSES, busNames } from "@tollgate/proto";

/** The file docker-compose.yml and k8s/components/nats give the NATS server, made by `npm run nats-config`. */
export const NATS_AUTHORIZATION_FILE = fileURLToPath(new URL("../../k8s/components/nats/authorization.conf", import.meta.url));

/** The variable holding a process's NATS password: in `npm run secrets`' file, and in the NATS server's environment. */
export const natsPasswordVariable = (process: string): string => `${process.toUpperCase().replaceAll("-", "_")}_NATS_PASSWORD`;

/** A permission's subjects, one a line, quoted: `$` would otherwise start a variable. */
const allowing = (subjects: string[]) => ["{", "          allow: [", ...subjects.map((subject) => `            "${subject}"`), "          ]", "        }"];

/**
 * The NATS server's `authorization` block for a deployment whose NATS_PREFIX is `prefix`: one user per
 * process, named for it, with the permissions proto's BUS_ACCESS gives it and nothing else. Passwords
 * are the server's environment variables (nats-server reads `$NAME` from its environment).
 */
export function natsAuthorization(prefix: string): string {
  const names = busNames(prefix);
  const users = BUS_PROCESSES.map((process) => {
    const { publish, subscribe, allowResponses } = natsPermissions(process, names);
    return [
      "    {",
      `      user: "${process}"`,
      `      password: $${natsPasswordVariable(process)}`,
      "      permissions: {",
      `        publish: ${allowing(publish).join("\n")}`,
      `        subscribe: ${allowing(subscribe).join("\n")}`,
      ...(allowResponses ? ["        allow_responses: true"] : []),
      "      }",
      "    }",
    ].join("\n");
  });
  return [
    `# Made by \`npm run nats-config\` from proto/src/bus-access.ts for NATS_PREFIX=${prefix}: do not edit.`,
    "# One user per process, allowed to publish only its own events and the requests it sends, to manage",
    "# only its own durable consumers, and to listen only to the requests it answers and its own replies.",
    "authorization {",
    "  users: [",
    users.join("\n"),
    "  ]",
    "}",
    "",
  ].join("\n");
}
