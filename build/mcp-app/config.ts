/**
 * What the build tells the MCP App's browser code (build/mcp-app.ts passes it to esbuild as the
 * global MCP_APP_CONFIG): the facts it shares with the server, each from its one source.
 */
export interface AppConfig {
  /** The app's name and version, for the host (ui/initialize's appInfo). */
  readonly name: string;
  readonly version: string;
  /** The tool the next or previous page and a refined search call. */
  readonly searchTool: string;
}
