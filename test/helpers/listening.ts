import { readdir, readFile, readlink } from "node:fs/promises";

/**
 * The TCP addresses a process and every process below it listen on, from Linux's /proc (this
 * machine's network namespace): `127.0.0.1:3000`, `[::1]:3000`, `0.0.0.0:3000`. A process that
 * exits while they are read is left out.
 */

/** The process and its descendants. */
export async function processTree(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
    // After the command's name, in parentheses and maybe holding spaces: state, then the parent's id.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (Number.isInteger(ppid)) parents.set(Number(name), ppid);
  }
  const found = [root];
  for (let i = 0; i < found.length; i += 1) {
    for (const [pid, ppid] of parents) if (ppid === found[i]) found.push(pid);
  }
  return found;
}

/** The inodes of the sockets a process holds open. */
async function socketInodes(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")));
  return links.flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? []);
}

/** /proc/net/tcp's little-endian hex address as text. */
function addressOf(hex: string, v6: boolean): string {
  const [ip = "", port = ""] = hex.split(":");
  const words = (ip.match(/.{8}/g) ?? []).map((word) => (word.match(/../g) ?? []).reverse().join(""));
  const text = v6
    ? `[${words
        .join("")
        .match(/.{4}/g)
        ?.map((group) => group.replace(/^0+(?=.)/, ""))
        .join(":")
        .replace(/(^|:)0(:0)+(:|$)/, "::")}]`
    : (words[0]?.match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)).join(".");
  return `${text}:${Number.parseInt(port, 16)}`;
}

/** The listening addresses of `root` and the processes below it, sorted. */
export async function listeningAddresses(root: number): Promise<string[]> {
  const inodes = new Set((await Promise.all((await processTree(root)).map(socketInodes))).flat());
  const found: string[] = [];
  for (const [table, v6] of [
    ["/proc/net/tcp", false],
    ["/proc/net/tcp6", true],
  ] as const) {
    for (const line of (await readFile(table, "utf8").catch(() => "")).split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // st 0A is LISTEN; the inode is the tenth field.
      if (fields[3] === "0A" && inodes.has(fields[9] ?? "")) found.push(addressOf(fields[1] ?? "", v6));
    }
  }
  return found.sort();
}
