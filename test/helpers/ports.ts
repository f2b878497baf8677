import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 that was free a moment ago, for a server that must know its port before it listens. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}
