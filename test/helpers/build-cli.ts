import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the build CLI as `npm run build` does (`--check` for `npm run check`), with the given
 * content and dist folders (and BASE_URL https://directory.example unless `env` says otherwise).
 */
export async function buildCli(args: string[], contentDir: string, distDir: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  env = { ...process.env, CONTENT_DIR: contentDir, DIST_DIR: distDir, BASE_URL: "https://directory.example", ...env };
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "build/cli.ts", ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
