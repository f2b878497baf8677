/** One line of the server's log (pino JSON); a line that is not JSON is kept as `msg` at level 0. */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

interface Wait {
  predicate: (line: LogLine) => boolean;
  count: number;
  /** The matching lines seen, and how many lines have been looked at. */
  found: LogLine[];
  scanned: number;
  resolve: (lines: LogLine[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  what: string;
}

/**
 * A server's log as it is written (a child's stdout, or the stream given to pino), and waits for
 * the lines a test expects: a test waits for the moment the server reports, not for a clock.
 */
export class LogLines {
  /** Every line so far, parsed. */
  readonly lines: LogLine[] = [];
  #pending = "";
  #waits = new Set<Wait>();
  #ended: string | null = null;

  /** Text as written: chunks may end inside a line. */
  write(text: string): void {
    const parts = (this.#pending + text).split("\n");
    this.#pending = parts.pop() ?? "";
    for (const part of parts) {
      try {
        this.lines.push(JSON.parse(part) as LogLine);
      } catch {
        this.lines.push({ level: 0, msg: part });
      }
    }
    for (const wait of this.#waits) this.#settle(wait);
  }

  /** No more lines will come (the process exited): a wait not met yet fails now, saying why. */
  end(reason: string): void {
    this.#ended = reason;
    for (const wait of this.#waits) this.#settle(wait);
  }

  /**
   * The first `count` lines matching `predicate`, among those written already and those to come.
   * Fails when the log ends first, or after `timeoutMs`: a safety net so that a server that
   * never says it fails the test with its log rather than hang it (unless the test is about how
   * soon the line comes, when the timeout is the limit under test).
   */
  waitFor(what: string, predicate: (line: LogLine) => boolean, { count = 1, timeoutMs = 30_000 } = {}): Promise<LogLine[]> {
    return new Promise((resolve, reject) => {
      const wait: Wait = {
        predicate,
        count,
        found: [],
        scanned: 0,
        resolve,
        reject,
        what,
        timer: setTimeout(() => this.#fail(wait, `not within ${timeoutMs} ms`), timeoutMs),
      };
      this.#waits.add(wait);
      this.#settle(wait);
    });
  }

  #settle(wait: Wait): void {
    for (; wait.scanned < this.lines.length && wait.found.length < wait.count; wait.scanned += 1) {
      const line = this.lines[wait.scanned] as LogLine;
      if (wait.predicate(line)) wait.found.push(line);
    }
    if (wait.found.length >= wait.count) {
      clearTimeout(wait.timer);
      this.#waits.delete(wait);
      wait.resolve(wait.found);
    } else if (this.#ended !== null) {
      this.#fail(wait, this.#ended);
    }
  }

  #fail(wait: Wait, why: string): void {
    clearTimeout(wait.timer);
    this.#waits.delete(wait);
    const log = this.lines.map((line) => (line.level === 0 ? line.msg : JSON.stringify(line))).join("\n");
    wait.reject(new Error(`waited for ${wait.count} log line(s) ${wait.what}, saw ${wait.found.length}: ${why}. The log so far:\n${log}`));
  }
}

/** The line a server writes when SIGTERM has closed its listener (src/server.ts). */
export const isStopListening = (line: LogLine) => line.msg === "no longer accepting connections; finishing the requests in flight";

/** A line saying a rebuilt snapshot is served in place of another (src/snapshot/reload.ts). */
export const anySnapshotServed = (line: LogLine) => line.level === 30 && / now served, replacing /.test(line.msg);
