/** Whether a parsed JSON value is an object, not null or an array: what JSON-RPC messages, their params and `_meta` must be. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
