import { TOOLS } from "../api/tools/index.ts";
import { QUOTE_URL_RULE, type ToolDefinition, UNTRUSTED_LISTING_TEXT } from "../api/tools/tool.ts";
import type { Answer } from "../core/answer.ts";
import { ApiError, internalError, snapshotUnavailable } from "../core/errors.ts";
import { parameterError } from "../core/validation.ts";
import { createAjv, REQUEST_VALIDATION } from "../schemas/ajv.ts";
import { type ErrorBody, ErrorBodySchema } from "../schemas/error.ts";
import type { SnapshotView } from "../snapshot/view.ts";
import type { CallToolResult, Tool, ToolAnnotations } from "./protocol.ts";

/** Every tool only reads the snapshot: same answer for the same input, nothing outside it touched. */
const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Added after the JSON copy of every successful directory answer, so listing text is set apart (interface §7). */
export const LISTING_NOTICE = `The JSON above is a directory answer. ${UNTRUSTED_LISTING_TEXT} ${QUOTE_URL_RULE}`;

/**
 * What a call comes to: the mirrored route's answer (its JSON becomes structuredContent and the
 * text copy), or an `isError` result carrying the REST Error object.
 */
export type ToolOutcome =
  | { readonly kind: "answer"; readonly answer: Answer<unknown>; readonly listingText: boolean; readonly note?: string | undefined }
  | { readonly kind: "error"; readonly result: CallToolResult };

/** A tool ready to list and call. */
export interface CatalogTool {
  readonly name: string;
  /** The tools/list entry, built once. */
  readonly descriptor: Tool;
  /** The `isError` result of arguments the input schema refuses; null when they are valid. */
  refusal(args: Record<string, unknown>): ToolOutcome | null;
  /** What an answer to valid `args` depends on besides the snapshot: their values in the schema's order. */
  key(args: Record<string, unknown>): string;
  /**
   * Answers valid `args` from `view` (null before the first snapshot has loaded); never throws:
   * every failure is an `isError` outcome.
   */
  call(view: SnapshotView | null, args: Record<string, unknown>, onUnexpected: (error: unknown) => void): ToolOutcome;
}

/** A copy that shares nothing with the schema constants, typed as the protocol's Tool. */
function jsonCopy<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function errorResult(body: ErrorBody): ToolOutcome {
  return { kind: "error", result: { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, isError: true } };
}

/** An ApiError as a tool's `isError` result: the REST body, with the tool's own advice where REST's names a URL. */
function apiErrorResult(definition: Pick<ToolDefinition, "advice">, error: ApiError): ToolOutcome {
  const body = error.toBody();
  const advice = definition.advice?.[body.error.code];
  return errorResult(advice === undefined ? body : { error: { ...body.error, resolution: advice } });
}

/**
 * A tool's `_meta` naming the MCP App that shows its results (MCP Apps, Resource Discovery):
 * `ui.resourceUri`, and the flat `ui/resourceUri` that older hosts read, as the extension's own
 * server helper (registerAppTool) writes both.
 */
function appMeta(resourceUri: string): Record<string, unknown> {
  return { ui: { resourceUri }, "ui/resourceUri": resourceUri };
}

/** Validators compiled once at start, checking arguments as REST checks its parameters. */
const ajv = createAjv(REQUEST_VALIDATION);

/** Compiles a tool's input validator once and builds its descriptor once. */
function catalogTool(definition: ToolDefinition): CatalogTool {
  const validate = ajv.compile(definition.inputSchema);
  const allowed = Object.keys(definition.inputSchema.properties);
  const descriptor: Tool = {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: jsonCopy<Tool["inputSchema"]>(definition.inputSchema),
    // Clients validate structuredContent against this even on isError results, so the Error body is one branch.
    outputSchema: jsonCopy<NonNullable<Tool["outputSchema"]>>({ type: "object", anyOf: [definition.outputSchema, ErrorBodySchema] }),
    annotations: { title: definition.title, ...READ_ONLY },
    ...(definition.app === undefined ? {} : { _meta: appMeta(definition.app) }),
  };

  return {
    name: definition.name,
    descriptor,
    refusal(args) {
      return validate(args) ? null : errorResult(parameterError(validate.errors ?? [], definition.rules, allowed).toBody());
    },
    key(args) {
      return JSON.stringify(allowed.map((name) => args[name] ?? null));
    },
    call(view, args, onUnexpected) {
      if (view === null) return apiErrorResult(definition, snapshotUnavailable());
      let answer: Answer<Record<string, unknown>>;
      let note: string | undefined;
      try {
        answer = definition.run(view, args);
        note = definition.note?.(view, args, answer);
      } catch (error) {
        if (error instanceof ApiError) return apiErrorResult(definition, error);
        onUnexpected(error);
        return errorResult(internalError().toBody());
      }
      return { kind: "answer", answer, listingText: definition.listingText, note };
    },
  };
}

const CATALOG_TOOLS: readonly CatalogTool[] = TOOLS.map(catalogTool);

export const TOOLS_BY_NAME: ReadonlyMap<string, CatalogTool> = new Map(CATALOG_TOOLS.map((tool) => [tool.name, tool]));

/** Every tool's tools/list entry, in order, without icons (the server adds its own: toolList). */
export const TOOL_LIST: { tools: Tool[] } = { tools: CATALOG_TOOLS.map((tool) => tool.descriptor) };

/** The tools/list answer, each tool carrying `icons` (made once per server: the same object for every request). */
export function toolList(icons: Tool["icons"]): { tools: Tool[] } {
  return { tools: TOOL_LIST.tools.map((tool) => ({ ...tool, icons })) };
}
