// Secrets across the plugin's boundary. The plugin's server (server.ts) tells the engine in
// Configure that it accepts secrets, so inputs and state arrive with Pulumi's secret signature
// around secret values, and the engine keeps secret only what the provider's replies mark so
// (it no longer copies an input's secretness to the output of the same name). The resource code
// takes plain values: secrets are unwrapped on the way in and the same top-level fields, plus the
// definition's secret outputs, wrapped on the way out.
import { SECRET_SIG, SIG_KEY } from "../provider/kernel/secret-signature";

type Props = Record<string, unknown>;

const isSecret = (v: unknown): v is { value: unknown } => v !== null && typeof v === "object" && !Array.isArray(v) && (v as Props)[SIG_KEY] === SECRET_SIG;

export const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

/** A value with every secret inside it unwrapped, and whether there was one. */
function reveal(v: unknown): { value: unknown; hadSecret: boolean } {
  if (isSecret(v)) return { value: reveal(v.value).value, hadSecret: true };
  if (Array.isArray(v)) {
    const items = v.map(reveal);
    return { value: items.map((i) => i.value), hadSecret: items.some((i) => i.hadSecret) };
  }
  if (v !== null && typeof v === "object") {
    let hadSecret = false;
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) {
      const r = reveal(x);
      out[k] = r.value;
      hadSecret ||= r.hadSecret;
    }
    return { value: out, hadSecret };
  }
  return { value: v, hadSecret: false };
}

/** Props without secret wrappers, and the top-level keys that held a secret anywhere inside. */
export function unwrapSecrets(props: Props | undefined): { props: Props; secretKeys: Set<string> } {
  const out: Props = {};
  const secretKeys = new Set<string>();
  for (const [k, v] of Object.entries(props ?? {})) {
    const r = reveal(v);
    out[k] = r.value;
    if (r.hadSecret) secretKeys.add(k);
  }
  return { props: out, secretKeys };
}

/** Props with the named top-level keys (those present and set) wrapped as secrets. */
export function wrapSecrets<T extends Props | undefined>(props: T, keys: Iterable<string>): T {
  if (!props) return props;
  const out: Props = { ...props };
  for (const k of keys) if (out[k] !== undefined && out[k] !== null && !isSecret(out[k])) out[k] = secret(out[k]);
  return out as T;
}
