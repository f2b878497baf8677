/**
 * A host page for the MCP App's browser test (mcp-app.test.ts), bundled for the browser by the
 * test: the ext-apps host side (AppBridge) renders the app in a sandboxed iframe, hands it a
 * tool's input and result, and reports every request the app makes to the test through the
 * functions the test exposes (hostEvent, callServerTool), as a chat client would handle them.
 */
import { AppBridge, type McpUiHostContext, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

type ToolResult = Parameters<AppBridge["sendToolResult"]>[0];

/** What the test tells the host to show. */
interface Scenario {
  readonly appUrl: string;
  readonly toolInput: Record<string, unknown>;
  readonly toolResult: ToolResult;
  readonly context: McpUiHostContext;
}

/** Exposed by the test (Playwright's exposeFunction). */
declare function hostEvent(event: unknown): Promise<void>;
declare function callServerTool(params: unknown): Promise<ToolResult>;

async function startHost(scenario: Scenario): Promise<void> {
  const iframe = document.createElement("iframe");
  iframe.title = "Directory results";
  // As a web host runs an app: scripts only, in an origin of its own.
  iframe.setAttribute("sandbox", "allow-scripts");
  document.body.append(iframe);
  const view = iframe.contentWindow;
  if (view === null) throw new Error("the iframe has no window");

  let context = scenario.context;
  const bridge = new AppBridge(null, { name: "test-host", version: "1.0.0" }, { openLinks: {}, serverTools: {} }, { hostContext: context });
  bridge.onopenlink = async ({ url }) => {
    await hostEvent({ kind: "open-link", url });
    return {};
  };
  bridge.oncalltool = async (params) => {
    await hostEvent({ kind: "tools/call", params });
    return callServerTool(params);
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  bridge.oninitialized = () => {
    void (async () => {
      await bridge.sendToolInput({ arguments: scenario.toolInput });
      await bridge.sendToolResult(scenario.toolResult);
      await hostEvent({ kind: "initialized" });
    })();
  };
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.src = scenario.appUrl;

  (globalThis as unknown as { setTheme: (theme: "light" | "dark") => void }).setTheme = (theme) => {
    context = { ...context, theme };
    bridge.setHostContext(context);
  };
}

(globalThis as unknown as { startHost: typeof startHost }).startHost = startHost;
