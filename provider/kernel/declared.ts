// The inputs a refresh hands back to the engine. Pulumi 3.248's dynamic-provider host takes `inputs`
// from `read` and stores them in place of the old ones, so `ignoreChanges` keeps the live value of an
// ignored field and a planned update shows the field that drifted. But `read` is given the state's
// outputs only, never the inputs, so what the program declared travels in the outputs: the shape of
// the declared inputs (which fields, and inside objects which keys; no values, so never a secret),
// and the values of declared inputs no output mirrors (`adoptId`, the provenance key `__origin`),
// each under its own name so that the engine, which keeps an input's secretness on the output of the
// same name, keeps it secret. The rebuilt inputs are the live values cut to the declared shape. The
// shape is kept as one string (kernel/shape-text.ts); a state written before that holds the tree.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { userInputs } from "./check";
import { declaredView, outputShape, type ResourceDefinition } from "./define";
import { parseShapeText, type Shape, shapeText } from "./shape-text";

type Props = Record<string, unknown>;

/** The output holding the shape of the program's inputs. */
export const DECLARED = "__declared";

/** Hidden inputs the SDK passes that the provider keeps (the account is carried by the factory). */
const KEPT_HIDDEN = ["__origin"] as const;

const isPlainObject = (v: unknown): v is Props => v !== null && typeof v === "object" && !Array.isArray(v);

export function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]));
  return true;
}

/** The declared shape a state records: its text, or the tree states before the text held (undefined: none, or damaged). */
export function recordedShape(recorded: unknown): Record<string, Shape> | undefined {
  if (isPlainObject(recorded)) return recorded as Record<string, Shape>;
  if (typeof recorded !== "string") return undefined;
  try {
    return parseShapeText(recorded);
  } catch {
    return undefined;
  }
}

/** What the state keeps of the program's declared inputs. */
export const declaredRecord = (declared: Props): string => shapeText(shapeOf(declared) as Record<string, Shape>);

/**
 * `live` cut to `shape`: keys the server adds inside declared objects (its defaults) are left out, so
 * the inputs stay what the program declares; a declared key the live object lacks is left out too.
 * Array elements beyond the declared ones are kept whole.
 */
export function cutTo(live: unknown, shape: Shape | undefined): unknown {
  if (shape === undefined || shape === true) return live;
  if (Array.isArray(shape)) return Array.isArray(live) ? live.map((v, i) => cutTo(v, shape[i])) : live;
  if (!isPlainObject(live)) return live;
  const out: Props = {};
  for (const [k, s] of Object.entries(shape)) if (k in live && live[k] !== undefined) out[k] = cutTo(live[k], s);
  return out;
}

/**
 * `outs` with the record of what the program declared in `inputs` (the account already removed):
 * for create, adoption and update, whose outputs the next `read` is given.
 */
export function recordDeclared(definition: ResourceDefinition, outs: Props | undefined, inputs: Props | undefined): Props | undefined {
  if (!outs || !inputs) return outs;
  const declared = userInputs(inputs);
  const mirrored = outputShape(definition);
  const record: Props = { [DECLARED]: declaredRecord(declared) };
  for (const [k, v] of Object.entries(declared)) if (!(k in mirrored)) record[k] = v;
  for (const k of KEPT_HIDDEN) if (typeof inputs[k] === "string") record[k] = inputs[k];
  return { ...outs, ...record };
}

/**
 * A read's result with the record carried over from the last state (`state`, account removed), and
 * the inputs rebuilt from it: the declared fields with their live values (one PagerDuty computes
 * as the program would declare it), the unmirrored ones with their recorded values. A state written
 * before the record existed gets no inputs (the engine then keeps the old ones), as does an object that is gone.
 */
export function withReadInputs(definition: ResourceDefinition, result: dynamic.ReadResult, state: Props | undefined): dynamic.ReadResult {
  const recorded = state?.[DECLARED];
  const shape = recordedShape(recorded);
  if (!result.id || !result.props || !shape) return result;
  const mirrored = outputShape(definition);
  const asDeclared = declaredView(definition);
  // A text is carried as it is; a tree from an older state is written back as text.
  const props: Props = { ...result.props, [DECLARED]: typeof recorded === "string" ? recorded : shapeText(shape) };
  const inputs: Props = {};
  for (const [k, s] of Object.entries(shape)) {
    if (!(k in mirrored)) {
      if (state![k] !== undefined) props[k] = inputs[k] = state![k];
    } else if (props[k] !== undefined) {
      inputs[k] = cutTo(asDeclared(k, props[k]), s);
    }
  }
  for (const k of KEPT_HIDDEN) if (typeof state![k] === "string") props[k] = inputs[k] = state![k];
  return { ...result, props, inputs };
}
