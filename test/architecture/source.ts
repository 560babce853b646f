import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** What the architecture checks read: the repository's files and their imports, on their text. */

export const repository = fileURLToPath(new URL("../..", import.meta.url));
export const billingSource = path.join(repository, "services/billing/src");

/** A file's path relative to billing's src/, with forward slashes. */
export const billingRelative = (file: string) => path.relative(billingSource, file).split(path.sep).join("/");

/** The modules `file` imports or re-exports, as written. */
export function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? [statement.moduleSpecifier.text] : [],
  );
}

/** Billing's TypeScript files, its migrations left out (they make every table). */
export function billingFiles(): string[] {
  return readdirSync(billingSource, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.startsWith(`migrations${path.sep}`))
    .map((file) => path.join(billingSource, file));
}
