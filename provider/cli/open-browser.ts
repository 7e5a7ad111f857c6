// Hands a URL to the user's browser: $BROWSER, else the platform's opener. Failing (no display, no
// opener) is fine: the caller has printed the URL for the user to open.
import { spawn } from "node:child_process";

export function openBrowser(url: string): void {
  const [cmd, args] = process.env.BROWSER
    ? [process.env.BROWSER, [url]]
    : process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["rundll32", ["url.dll,FileProtocolHandler", url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // The printed URL is the fallback.
  }
}
