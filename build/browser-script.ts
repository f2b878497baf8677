import { type BuildOptions, build } from "esbuild";

/**
 * Browser code bundled by esbuild into one script, minified, run as it loads: the MCP App's
 * (build/mcp-app.ts) and the editors' form's (build/admin.ts). `what` names it in an error.
 */
export async function browserScript(entry: string, what: string, options: Pick<BuildOptions, "define" | "plugins"> = {}): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    logLevel: "silent",
    ...options,
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote no bundle for ${what}`);
  return output.text;
}
