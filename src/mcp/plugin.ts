import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import type { CatalogService } from "../core/service.ts";

export interface McpOptions {
  service: CatalogService;
  config: Config;
}

/** POST /mcp: the MCP endpoint (stateless Streamable HTTP). */
export async function registerMcp(_app: FastifyInstance, _options: McpOptions): Promise<void> {}
