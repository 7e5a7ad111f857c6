// Ids for `pulumi import`. The engine imports by id alone: its Read carries no state. Most kinds
// read by their own id, but a child (an integration, an event rule, a cache variable) is addressed
// under its service, and an enablement is a service's feature, so their import ids name the service
// too; each definition says which (`importId`, provider/kernel/define.ts). The engine keeps the id it
// imported with, so every later call may carry such an id: `locate` turns it back into the kind's
// own id and the state fields it stands for. Imported inputs are rebuilt from what the read found,
// as the program that `pulumi import` prints declares them.
import { PagerDutyError } from "../provider/errors";
import { DECLARED, declaredRecord } from "../provider/kernel/declared";
import { declaredView, type ImportId, importIdFormat as formatOf, inputShape, type ResourceDefinition } from "../provider/kernel/define";
import { isResourceKind, RESOURCES } from "../provider/registry";

type Props = Record<string, unknown>;

/** How to import a kind (for errors and docs); undefined: it cannot be imported. */
export function importIdFormat(kind: string): ImportId | undefined {
  return formatOf(isResourceKind(kind) ? RESOURCES[kind].definition : undefined);
}

/** The kind's own id and the state a call should see, from the engine's id and state. */
export function locate(kind: string, id: string, state: Props | undefined): { id: string; state: Props } {
  const props = state ?? {};
  const importing = !Object.keys(props).length;
  const format = importIdFormat(kind);
  if (format === "<service id>/<id>") {
    if (id.includes("/")) {
      const [service, own] = split(kind, id);
      return { id: own, state: { service, ...props } };
    }
    if (importing) throw badId(kind, id);
  }
  if (format === "<service id>/<feature>" && importing) {
    const [service, feature] = split(kind, id);
    return { id, state: { service, feature } };
  }
  if (format === undefined && importing)
    throw new PagerDutyError("ERR_INPUT", `a ${kind} cannot be imported (its id alone does not locate it); declare it and \`up\` records it`);
  return { id, state: props };
}

function split(kind: string, id: string): [string, string] {
  const at = id.indexOf("/");
  if (at <= 0 || at === id.length - 1 || id.indexOf("/", at + 1) >= 0) throw badId(kind, id);
  return [id.slice(0, at), id.slice(at + 1)];
}

const badId = (kind: string, id: string) =>
  new PagerDutyError("ERR_INPUT", `${kind} "${id}": import it by "${importIdFormat(kind)}" (the object lives under its service)`);

/**
 * The inputs of an imported object: each input field the read found set, as a program declares it;
 * and the outputs with the record of that declaration, so later refreshes rebuild inputs the same way.
 */
export function importedInputs(definition: ResourceDefinition, props: Props): { inputs: Props; props: Props } {
  const asDeclared = declaredView(definition);
  const inputs: Props = {};
  for (const key of Object.keys(inputShape(definition))) {
    const live = props[key];
    const value = withoutNulls(live === undefined || live === null ? undefined : asDeclared(key, live));
    if (value !== undefined) inputs[key] = value;
  }
  return { inputs, props: { ...props, [DECLARED]: declaredRecord(inputs) } };
}

/** A value without its null fields (a program leaves unset what the API reports as null), deeply; objects left empty go too. */
function withoutNulls(v: unknown): unknown {
  if (v === null) return undefined;
  if (Array.isArray(v)) return v.map(withoutNulls).filter((x) => x !== undefined);
  if (typeof v === "object" && v) {
    const out = Object.entries(v).flatMap(([k, x]) => {
      const y = withoutNulls(x);
      return y === undefined ? [] : [[k, y] as const];
    });
    // An object left empty held only nulls: unset as a whole (its required fields would be missing).
    return out.length ? Object.fromEntries(out) : undefined;
  }
  return v;
}
