// What the state keeps of an output PagerDuty leaves unset: nothing. The engine serializes every
// property value of the state on each checkpoint save (before and after every step), so each null
// output cost every phase that writes state (an events integration had seven: the email settings
// and the vendor it does not have). A program reads an absent output as `undefined`; the diff and
// the drift report already take absent and null for the same "no value" (diff.ts, drift.ts).
// Only top-level outputs go: inside an object a null can be a value a resource keeps (a custom
// field's previous value that was empty, which its delete puts back).
type Props = Record<string, unknown>;

/** `props` without its null members. */
export function withoutUnset(props: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props)) if (v !== null) out[k] = v;
  return out;
}

/** What an operation reports (`outs` or `props`) without unset outputs; its `inputs` are the program's and stay. */
export function leanResult<T extends { outs?: Props } | { props?: Props }>(result: T): T {
  if ("outs" in result && result.outs) return { ...result, outs: withoutUnset(result.outs) };
  if ("props" in result && result.props) return { ...result, props: withoutUnset(result.props) };
  return result;
}
