import { access, constants } from "node:fs/promises";
import { delimiter, join } from "node:path";

/**
 * The outside programs of the fleet tests (Debian's nginx and prometheus), found without a
 * hard-coded path only: `<NAME>_PATH` when set, else Debian's place, else PATH. When one is
 * missing its tests are skipped with the reason, unless REQUIRE_FLEET_TESTS=1 (set by .ci/run),
 * which makes that a failure.
 */

export type ToolSearch = { path: string } | { path: null; reasons: string[] };

/** The first executable `name` found (`variable`, then `debianPath`, then PATH), or why none was. */
export async function findTool(name: string, variable: string, debianPath: string): Promise<ToolSearch> {
  const explicit = process.env[variable];
  const candidates =
    explicit !== undefined && explicit !== ""
      ? [explicit]
      : [debianPath, ...(process.env.PATH ?? "").split(delimiter).flatMap((dir) => (dir === "" ? [] : [join(dir, name)]))];
  const reasons: string[] = [];
  for (const path of candidates) {
    try {
      await access(path, constants.X_OK);
      return { path };
    } catch (error) {
      reasons.push(`${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  return { path: null, reasons: explicit !== undefined && explicit !== "" ? reasons : [`no ${name} at ${debianPath} or on PATH`] };
}

/** True when a missing tool must fail the run instead of skipping the fleet tests. */
export function fleetRequired(): boolean {
  return process.env.REQUIRE_FLEET_TESTS === "1";
}
