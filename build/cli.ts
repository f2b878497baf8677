/**
 * `npm run build` (content → dist/) and `npm run check` (validate only). Exits 1 with every
 * content error listed at its `path:line:col`, writing nothing; warnings are listed too and never
 * change the exit code: the first few of each kind (WARNINGS_PER_KIND), then how many more there
 * are of it, since a large directory can warn about thousands of files; `--all-warnings` lists every one.
 * `--format github` prints them as GitHub Actions annotations; `--verbose` prints each stage's
 * time and memory. A usage mistake exits 2.
 *
 * A build is incremental (build/cache.ts): files unchanged since the last build are not parsed
 * or checked again, and pages whose inputs did not change are kept from the previous snapshot.
 * `--clean` builds from nothing (and writes a new cache); its data files and pages are the same,
 * byte for byte (test/build/incremental.test.ts).
 */
import { parseArgs } from "node:util";
import { type BuildOptions, build, failure } from "./build.ts";
import { unknownOption } from "./options.ts";
import { ALL_WARNINGS_OPTION, REPORT_FORMATS, type ReportFormat } from "./report.ts";

class UsageError extends Error {}

const OPTIONS = {
  check: { type: "boolean" },
  clean: { type: "boolean" },
  verbose: { type: "boolean" },
  format: { type: "string" },
  [ALL_WARNINGS_OPTION]: { type: "boolean" },
} as const;

const CHOICES = `Options: --clean, --format ${REPORT_FORMATS.join("|")}, --${ALL_WARNINGS_OPTION}, --verbose.`;

function options(): BuildOptions {
  const args = process.argv.slice(2);
  const unknown = unknownOption(args, OPTIONS);
  if (unknown !== undefined) throw new UsageError(`${unknown}${unknown.endsWith("?") ? "" : "."} ${CHOICES}`);
  let values: { check?: boolean; clean?: boolean; verbose?: boolean; format?: string; [ALL_WARNINGS_OPTION]?: boolean };
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message}. ${CHOICES}`);
  }
  const format = values.format ?? "text";
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(", ")}, not "${format}".`);
  }
  return {
    checkOnly: values.check === true,
    clean: values.clean === true,
    verbose: values.verbose === true,
    allWarnings: values[ALL_WARNINGS_OPTION] === true,
    format: format as ReportFormat,
  };
}

/**
 * A reader that stops early (`npm run build -- --verbose | head`) closes our stdout or stderr:
 * the build goes on without printing rather than dying half-way on EPIPE, and its exit code
 * still says whether it succeeded.
 */
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

// options() inside the promise: a usage mistake is reported below, not thrown.
Promise.resolve()
  .then(() => build(options()))
  .then(
    ({ code }) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(`${process.argv.includes("--check") ? "npm run check" : "npm run build"}: ${error.message}`);
        process.exitCode = 2;
        return;
      }
      console.error(failure(error));
      process.exitCode = 1;
    },
  );
