import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** A page's JavaScript budget: what its first load may fetch, gzipped. */
export interface PageBudget {
  page: string;
  /** The module its route loads (a lazy route's component), from the web folder. */
  module: string;
  maxGzipKb: number;
}

interface Chunk {
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
}

/**
 * Fails the build when a page's first load of JavaScript grows past its budget: the entry, the
 * page's route chunk and every chunk they import statically, each gzipped as a server would send it.
 * Lazy chunks (other routes, other languages' catalogs) load only when asked for and do not count.
 */
export function bundleBudget(budgets: PageBudget[]): Plugin {
  return {
    name: "tollgate-bundle-budget",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Chunk>();
      for (const output of Object.values(bundle)) if (output.type === "chunk") chunks.set(output.fileName, output);
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (!entry) this.error("the build has no entry chunk");
      for (const budget of budgets) {
        const route = [...chunks.values()].find((chunk) => chunk.facadeModuleId?.endsWith(budget.module));
        if (!route) this.error(`no chunk loads ${budget.module} (${budget.page}): is its route still lazy?`);
        const loaded = new Set<string>();
        const visit = (fileName: string) => {
          if (loaded.has(fileName)) return;
          loaded.add(fileName);
          for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
        };
        visit(entry.fileName);
        visit(route.fileName);
        const sizes = [...loaded].map((fileName) => ({ fileName, kb: gzipSync(chunks.get(fileName)?.code ?? "").length / 1024 })).sort((a, b) => b.kb - a.kb);
        const gzipKb = sizes.reduce((sum, { kb }) => sum + kb, 0);
        const line = `${budget.page}: ${gzipKb.toFixed(1)} kB of JavaScript gzipped (budget ${budget.maxGzipKb} kB: ${sizes.map(({ fileName, kb }) => `${fileName} ${kb.toFixed(1)}`).join(", ")})`;
        if (gzipKb > budget.maxGzipKb) this.error(`${line}: over budget. Load what the page does not need lazily.`);
        this.info(line);
      }
    },
  };
}
