import { offering } from "../../core/answers.ts";
import type { Offering } from "../../schemas/offering.ts";
import { ROUTES } from "../routes.ts";
import { type ArgumentsOf, TOOL_NAMES, type ToolDefinition } from "./tool.ts";

const route = ROUTES.getServiceOffering;

export const getOffering: ToolDefinition<ArgumentsOf<typeof route.params>, Offering> = {
  name: TOOL_NAMES.getOffering,
  title: "Read an offering",
  description: `Reads one offering by the exact slug that ${TOOL_NAMES.searchOfferings} returned: description, audience, access conditions, features, steps, FAQ and the guide's links (guideUrl, markdownUrl), exactly like GET ${route.path}. An unknown slug is a not_found error.`,
  inputSchema: route.params,
  outputSchema: route.response.schema,
  rules: route.rules,
  listingText: false,
  advice: {
    not_found: `Call ${TOOL_NAMES.searchOfferings} (without query it lists every offering) and use the exact slug of one of them.`,
  },
  mirrors: route.operationId,
  run: (view, input) => offering(view, input.slug),
};
