/**
 * How soon a rebuilt snapshot must be served (interface §3: about a second after the swap, plus
 * its load). A clock is part of the behaviour here: the wait for the server's line fails after it.
 */
export const RELOAD_LIMIT_MS = 5000;

/** The status and JSON body of a GET. */
export async function json(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

/** A promise and what resolves it: a moment for a test to await, reached by a listener. */
export function moment(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
