// The secret scan every e2e stack gets (tests/e2e/harness.ts installs it): no secret of the test's
// world may appear in plaintext in a stack's state files or in anything the `pulumi` CLI printed.
// The world's secrets: what each emulator's ready line names, every secret the emulators handed out
// (`GET /_emulator/secrets`: client secrets, API keys, passwords, tokens, routing keys, those of
// deleted integrations included; read when an emulator stops and when the scan runs), and every
// value a test set with `pulumi config set --secret`. A stack is scanned when the test file's
// hooks end (an `afterAll` the harness installs) and again when it is removed after that, so a
// leak fails the file with the secret's kind and where it was, never the secret itself.

/** What the scan reads of a stack: its state files and the CLI's output. */
export interface ScannedStack {
  readonly dir: string;
  /** What the CLI printed (runs that show secrets on purpose are left out: `showsSecrets`). */
  log: string;
  stateText(): string;
}

/** An emulator whose handed-out secrets the scan reads. */
export interface SecretSource {
  admin<T = any>(method: string, p: string): Promise<{ status: number; body: T }>;
}

/** Shorter values could match by chance; every secret the emulator issues is longer. */
const MIN_LENGTH = 8;

const known = new Map<string, string>();
const sources = new Set<SecretSource>();
const stacks = new Set<ScannedStack>();
/** Stacks removed before the end-of-file scan: what they held, scanned then. */
const removed: Array<{ dir: string; text: { state: string; log: string } }> = [];
let ended = false;
/** Findings already reported: a stack removed after the end-of-file scan reports only what is new. */
const reported = new Set<string>();

export function knowSecret(value: string | undefined, what: string): void {
  if (value && value.length >= MIN_LENGTH && !known.has(value)) known.set(value, what);
}

/** `pulumi config set --secret <key>` with the value on stdin: the value is a secret of the world. */
export function noteSecretConfig(args: string[], input: string | undefined): void {
  const i = args.indexOf("set");
  if (input !== undefined && args.includes("config") && args.includes("--secret") && i >= 0)
    knowSecret(input.trim(), `the secret config value ${args.slice(i + 1).find((a) => !a.startsWith("-")) ?? ""}`);
}

/** Runs whose output shows secrets on purpose: `--show-secrets`, and `config get` (which prints a secret in clear). */
export const showsSecrets = (args: string[]): boolean => args.includes("--show-secrets") || (args[0] === "config" && args[1] === "get");

/** Reads what `emu` handed out, now (an emulator about to stop, or at the scan). */
export async function harvest(emu: SecretSource): Promise<void> {
  const res = await emu.admin<{ secrets: { kind: string; value: string }[] }>("GET", "/_emulator/secrets");
  if (res.status !== 200) throw new Error(`secret scan: GET /_emulator/secrets answered ${res.status}`);
  for (const s of res.body.secrets) knowSecret(s.value, `the emulator's ${s.kind.replace(/_/g, " ")}`);
}

export function watchEmulator(emu: SecretSource): void {
  sources.add(emu);
}

export function unwatchEmulator(emu: SecretSource): void {
  sources.delete(emu);
}

export function watchStack(stack: ScannedStack): void {
  stacks.add(stack);
}

/** Call before a stack's files go: after the end-of-file scan it is scanned at once (and throws), before it its text waits for that scan. */
export function beforeRemove(stack: ScannedStack): void {
  if (!stacks.delete(stack)) return;
  const text = { state: stack.stateText(), log: stack.log };
  if (!ended) removed.push({ dir: stack.dir, text });
  else report(findings(stack.dir, text));
}

/** The end-of-file scan: every live emulator read, every stack's state and output searched. */
export async function scanAll(): Promise<void> {
  ended = true;
  if (!stacks.size && !removed.length) return;
  for (const emu of sources) await harvest(emu);
  const found = removed.flatMap((r) => findings(r.dir, r.text));
  for (const s of stacks) found.push(...findings(s.dir, { state: s.stateText(), log: s.log }));
  report(found);
}

function findings(dir: string, text: { state: string; log: string }): string[] {
  const out: string[] = [];
  for (const [where, haystack] of [
    ["state files", text.state],
    ["CLI output", text.log],
  ] as const) {
    for (const [value, what] of known) {
      const at = haystack.indexOf(value);
      if (at >= 0) out.push(`${what} in plaintext in the ${where} of ${dir}: ${excerpt(haystack, at, value)}`);
    }
  }
  return out;
}

/** About 60 characters either side of the secret at `at`, every known secret in it replaced by what it is. */
function excerpt(haystack: string, at: number, value: string): string {
  // Masked over a window wide enough that no secret reaching into the excerpt is cut in two.
  const reach = Math.max(...[...known.keys()].map((k) => k.length)) + 60;
  const start = Math.max(0, at - reach);
  let text = `${haystack.slice(start, at)}\u0000${haystack.slice(at + value.length, at + value.length + reach)}`;
  for (const [v, what] of known) text = text.split(v).join(`<${what}>`);
  const mark = text.indexOf("\u0000");
  return JSON.stringify(`…${text.slice(Math.max(0, mark - 60), mark)}<${known.get(value)}>${text.slice(mark + 1, mark + 61)}…`);
}

function report(all: string[]): void {
  const found = all.filter((f) => !reported.has(f));
  for (const f of found) reported.add(f);
  if (found.length) throw new Error(`secret scan: ${found.length} secret(s) in plaintext\n${found.join("\n")}`);
}
