/**
 * w3m, the text browser, driven through tmux: the journeys of people who read SafeWindow without CSS
 * or JavaScript use w3m's own forms and links, as they would (docs/architecture/behaviour.md §4, text browsers).
 * Debian packages `w3m` and `tmux` (`.ci/run` installs them when missing); W3M_PATH and TMUX_PATH
 * override where they are.
 *
 * w3m keys used: `/` searches forward (a regular expression) and puts the cursor on the match; `n`
 * repeats the search; Tab moves to the next link or form control; Enter follows a link, presses a
 * button, or opens a text control's prompt ("TEXT:" or "Password:"), which Enter closes.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const w3mPath = process.env.W3M_PATH || "/usr/bin/w3m";
const tmuxPath = process.env.TMUX_PATH || "tmux";

/** w3m's status line while a page is still arriving: "10.5kb loaded", or "  4.1kb  50% ..." when its length is known. */
const loading = /\d(?:\.\d+)?[kMG]?b(?: loaded|\s+\d+%)/;

/** One w3m in a detached tmux session of its own (120 x 60 characters), with its own cookie jar. */
export class W3m {
  private readonly session: string;
  private readonly home: string;

  private constructor(session: string, home: string) {
    this.session = session;
    this.home = home;
  }

  /** Starts w3m on `url` (cookies accepted, also for `localhost`). */
  static async open(url: string): Promise<W3m> {
    const home = await mkdtemp(path.join(tmpdir(), "sw-w3m-"));
    const session = `sw-w3m-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const command = [w3mPath, "-o", "accept_cookie=1", "-o", "accept_bad_cookie=1", "-o", "use_cookie=1", "-o", "confirm_qq=0", url]
      .map((part) => `'${part}'`)
      .join(" ");
    await run(tmuxPath, ["new-session", "-d", "-s", session, "-x", "120", "-y", "60", `HOME='${home}' TERM=xterm ${command}`]);
    return new W3m(session, home);
  }

  /** What the terminal shows now, one string (60 lines). */
  async screen(): Promise<string> {
    const { stdout } = await run(tmuxPath, ["capture-pane", "-p", "-t", this.session]);
    return stdout;
  }

  /**
   * Waits until the screen shows `text` (a string or a pattern) and w3m has finished loading the
   * page, and returns the screen. While a page arrives, w3m draws what it has over the last page and
   * says how much it has on its status line ("10.5kb loaded"), so a match then may be half a page.
   * @throws with the screen after `timeoutMs` (default 10,000 ms)
   */
  async waitFor(text: string | RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = "";
    while (Date.now() < deadline) {
      screen = await this.screen();
      const shown = typeof text === "string" ? screen.includes(text) : text.test(screen);
      if (shown && !loading.test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`w3m never showed ${String(text)}; the screen was:\n${screen}`);
  }

  /** Keys as tmux names them (Enter, Tab), each one a key press. */
  async keys(...keys: string[]): Promise<void> {
    for (const key of keys) {
      await run(tmuxPath, ["send-keys", "-t", this.session, key]);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
  }

  /** `text` typed literally (no key names). */
  async type(text: string): Promise<void> {
    await run(tmuxPath, ["send-keys", "-t", this.session, "-l", text]);
  }

  /** Puts the cursor on the first match of `pattern` after it (w3m's `/` search). */
  async find(pattern: string): Promise<void> {
    await this.keys("/");
    await this.waitFor(/Forward: *$/m);
    await this.type(pattern);
    await this.keys("Enter");
  }

  /**
   * Fills the text control that follows the text `label` on the screen: search, Tab to the
   * control, Enter for w3m's prompt, the value, Enter.
   */
  async fill(label: string, value: string): Promise<void> {
    await this.find(label);
    await this.keys("Tab", "Enter");
    await this.waitFor(/^(TEXT|Password): *$/m);
    await this.type(value);
    await this.keys("Enter");
  }

  /** Follows the link or presses the button whose text matches `pattern`. */
  async activate(pattern: string): Promise<void> {
    await this.find(pattern);
    await this.keys("Enter");
  }

  /** Ends w3m and its session, and removes its cookie jar. */
  async close(): Promise<void> {
    await run(tmuxPath, ["kill-session", "-t", this.session]).catch(() => undefined);
    await rm(this.home, { recursive: true, force: true });
  }
}
