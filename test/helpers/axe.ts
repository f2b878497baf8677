import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

const AXE = createRequire(import.meta.url).resolve("axe-core");

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/** Accessibility violations of any impact on a page or frame as it is now (axe-core's WCAG and best-practice rules). */
export async function violations(page: Page | Frame): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.map((node) => ({ target: node.target })) }));
  });
  return found.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
