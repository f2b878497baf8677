/** What the editors' commands (`npm run new`, `npm run build` and `check`) say of an option they do not take. */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { closest } from "../src/core/closest.ts";

/**
 * The first option in `args` that `options` does not hold, as one line naming the closest one it
 * holds (`unknown option --servise; did you mean --service?`); undefined when every option is
 * known. parseArgs's own message (`Unknown option '--servise'. To specify a positional argument
 * starting with a '-', …`) speaks of positional arguments, which is no help to an editor.
 */
export function unknownOption(args: string[], options: NonNullable<ParseArgsConfig["options"]>): string | undefined {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option" || Object.hasOwn(options, token.name)) continue;
    const suggestion = closest(token.name, Object.keys(options));
    return `unknown option ${token.rawName}${suggestion === undefined ? "" : `; did you mean --${suggestion}?`}`;
  }
  return undefined;
}
