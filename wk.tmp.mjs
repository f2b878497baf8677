import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
const { PublicBusinessSchema } = await import("/work/main/server/schemas/business.js");
const { AJV_OPTIONS, AJV_FORMATS } = await import("/work/main/server/schemas/ajv.js");
const bytes = readFileSync("/tmp/dist-100k/data/businesses.ndjson");
const ajv = new Ajv(AJV_OPTIONS); addFormats(ajv, [...AJV_FORMATS]); const check = ajv.compile(PublicBusinessSchema);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function run(mode) {
  const t = cpu(); let n = 0;
  if (mode === "hash") { createHash("sha256").update(bytes).digest("hex"); return cpu() - t; }
  for (let at = 0; at < bytes.length; ) {
    const end = Math.min(bytes.length, at + 65536); const last = bytes.lastIndexOf(10, end - 1);
    const text = bytes.subarray(at, last).toString("utf8"); at = last + 1;
    if (mode === "decode") continue;
    for (let from = 0; ; ) { const stop = text.indexOf("\n", from); const line = stop < 0 ? text.slice(from) : text.slice(from, stop);
      const o = JSON.parse(line); if (mode === "ajv" && !check(o)) throw new Error("bad"); n++; if (stop < 0) break; from = stop + 1; }
  }
  return cpu() - t;
}
for (let r = 0; r < 3; r++) console.log(["hash", "decode", "parse", "ajv"].map((m) => `${m} ${run(m).toFixed(0)} ms`).join(", "));
