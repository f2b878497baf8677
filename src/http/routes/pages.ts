import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { CatalogService } from "../../core/service.ts";

/** Pages for people (HTML) and agents (Markdown): the homepage, guides, directory, profiles. */
export function pageRoutes(_app: FastifyInstance, _service: CatalogService, _config: Config): void {}
